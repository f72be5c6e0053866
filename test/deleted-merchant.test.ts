// A deleted merchant (issue 9, S3): its links, client-side calls and not-yet-sent queued work stop; an operation
// the provider already has is still followed to its end. Its id is never given again (issue 19, item 2), and no key
// reaches what it left by any route. Also the admin API's URL fields (S2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOfApp } from './support/routes.ts';
import { Stack } from './support/stack.ts';
import { insertMandates, mandateDoc, paymentMethodDoc } from './support/mandates.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start();
});
afterAll(async () => stack?.stop());

const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
const deleteMerchant = async (id: string) => expect((await stack.api('DELETE', `/accounts/${id}`, undefined, stack.adminKey)).status).toBe(200);

describe('a deleted merchant', () => {
  it('its open and secure links, their pay and 3DS calls answer 404, and nothing is paid', async () => {
    const { merchant_id, api_key } = await stack.merchant();
    const { body: open } = await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', payment_link: true }, api_key);
    const { body: secure } = await stack.api(
      'POST',
      '/payments',
      {
        amount: 1_000,
        currency: 'EUR',
        payment_link: true,
        authentication_type: 'three_ds',
        payment_link_config: { allowed_domains: ['https://shop.example'] },
      },
      api_key,
    );
    expect((await fetch(open.payment_link.link)).status).toBe(200);
    await deleteMerchant(merchant_id);
    expect((await fetch(open.payment_link.link)).status).toBe(404);
    expect((await post(`${open.payment_link.link}/confirm`)).status).toBe(404);
    expect((await post(`${open.payment_link.link}/3ds/authentication`)).status).toBe(400); // the body is checked first
    expect((await fetch(secure.payment_link.secure_link, { headers: { 'sec-fetch-dest': 'iframe' } })).status).toBe(404);
    expect((await post(`${secure.payment_link.secure_link}/confirm`, { 'sec-fetch-site': 'same-origin' })).status).toBe(404);
    const auth = await fetch(`${secure.payment_link.secure_link}/3ds/authentication`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ device_channel: 'BRW', threeds_method_comp_ind: 'U' }),
    });
    expect(auth.status).toBe(404);
    const db = await stack.db();
    for (const id of [open.payment_id, secure.payment_id]) {
      expect(await db.collection('payments').findOne({ payment_id: id })).toMatchObject({ status: 'requires_confirmation', attempts: [] });
    }
    expect(await stack.sandboxCalls()).not.toContainEqual(expect.objectContaining({ method: 'POST' }));
  });

  it('its publishable key is gone with it: client-side calls answer 401', async () => {
    const { merchant_id, api_key } = await stack.merchant();
    const { body: account } = await stack.api('GET', `/accounts/${merchant_id}`, undefined, stack.adminKey);
    const pk = account.publishable_key;
    const { body: p } = await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', payment_link: true }, api_key);
    expect((await stack.api('GET', `/payments/${p.payment_id}?client_secret=${p.client_secret}`, undefined, pk)).status).toBe(200);
    await deleteMerchant(merchant_id);
    expect((await stack.api('GET', `/payments/${p.payment_id}?client_secret=${p.client_secret}`, undefined, pk)).status).toBe(401);
    expect((await stack.api('POST', `/payments/${p.payment_id}/confirm`, { client_secret: p.client_secret, payment_method: 'pay_later' }, pk)).status).toBe(
      401,
    );
    expect((await stack.api('GET', `/payment_link/${p.payment_link.payment_link_id}?client_secret=${p.client_secret}`, undefined, pk)).status).toBe(401);
    expect(await (await stack.db()).collection('merchants').findOne({ publishable_key: pk })).toBeNull();
  });

  it('a queued authorization not yet sent fails (merchant_deleted) without calling the provider', async () => {
    const { merchant_id, api_key } = await stack.merchant();
    const { body: p } = await stack.api('POST', '/payments', { amount: 2_500, currency: 'EUR' }, api_key);
    await stack.kill('worker', 'SIGTERM');
    try {
      const confirm = stack.api('POST', `/payments/${p.payment_id}/confirm`, { payment_method: 'pay_later' }, api_key);
      // Queued: Begin has recorded the operation.
      const db = await stack.db();
      for (let i = 0; i < 100 && !(await db.collection('payments').findOne({ payment_id: p.payment_id }))?.operations?.length; i++)
        await new Promise((r) => setTimeout(r, 50));
      await deleteMerchant(merchant_id);
      expect((await confirm).body.status).toBe('processing');
    } finally {
      await stack.startPart('worker');
    }
    const db = await stack.db();
    let stored: any;
    for (let i = 0; i < 200; i++) {
      stored = await db.collection('payments').findOne({ payment_id: p.payment_id });
      if (stored.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(stored).toMatchObject({ status: 'failed', error_code: 'merchant_deleted' });
    expect((await stack.sandboxCalls()).filter((c) => c.idempotency_key === stored.operations[0].operation_id)).toEqual([]);
  });

  it.each([
    ["the platform's default account", false],
    ['its own connector account (its credentials are retired, not destroyed)', true],
  ])("an authorization the provider already has is still followed through %s: the customer's decision is recorded", async (_name, ownAccount) => {
    const { merchant_id, api_key } = await stack.merchant();
    // Without accounts of its own the merchant is served by the default account (domain/connectors.ts DEFAULT_ACCOUNT_ID).
    let mca = 'mca_sandboxdefault000000';
    if (ownAccount) {
      const a = await stack.api(
        'POST',
        `/account/${merchant_id}/connectors`,
        {
          connector_name: 'service_test',
          connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
        },
        stack.adminKey,
      );
      expect(a.status).toBe(200);
      mca = a.body.merchant_connector_id;
    }
    const { body: p } = await stack.api(
      'POST',
      '/payments',
      {
        amount: 3_000,
        currency: 'EUR',
        confirm: true,
        payment_method: 'pay_later',
        customer: { email: 'lea+redirect@example.com' },
      },
      api_key,
    );
    expect(p.status).toBe('requires_customer_action');
    expect(p.merchant_connector_id).toBe(mca);
    await deleteMerchant(merchant_id);
    // The customer approves at the provider's page after the merchant is gone; the status sync still learns it.
    const hosted = await (await fetch(p.next_action.redirect_to_url)).text();
    const approve = /action="([^"]*approve[^"]*)"/.exec(hosted)?.[1];
    expect(approve).toBeTruthy();
    await fetch(new URL(approve!.replaceAll('&amp;', '&'), p.next_action.redirect_to_url), { method: 'POST', redirect: 'manual' });
    const db = await stack.db();
    let stored: any;
    for (let i = 0; i < 200; i++) {
      stored = await db.collection('payments').findOne({ payment_id: p.payment_id });
      if (stored.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(stored.status).toBe('succeeded');
  });
});

describe('a merchant id is never reused (issue 19, item 2)', () => {
  const ok = async (r: Promise<{ status: number; body: any }>, what: string) => {
    const res = await r;
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const until = async <T>(f: () => Promise<T | null | undefined>, what: string): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const v = await f();
      if (v) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it("re-creating a deleted merchant's id, or a live one's, answers 409 HE_01 naming merchant_id, and changes nothing", async () => {
    const { merchant_id } = await stack.merchant();
    const live = await stack.api('POST', '/accounts', { merchant_id }, stack.adminKey);
    expect(live.status).toBe(409);
    expect(live.body.error).toMatchObject({ code: 'HE_01', param: 'merchant_id', message: expect.stringContaining('already exists') });
    await deleteMerchant(merchant_id);
    const again = await stack.api('POST', '/accounts', { merchant_id, merchant_name: 'Next owner' }, stack.adminKey);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ type: 'invalid_request', code: 'HE_01', param: 'merchant_id' });
    expect(again.body.error.message).toMatch(/was used by a merchant account that was deleted.*never reused/);
    expect((await stack.api('GET', `/accounts/${merchant_id}`, undefined, stack.adminKey)).status).toBe(404);
    const db = await stack.db();
    expect(await db.collection('merchants').countDocuments({ merchant_id })).toBe(0);
    expect(await db.collection('business_profiles').countDocuments({ merchant_id })).toBe(0);
  });

  it('concurrent creates with one new id: exactly one succeeds, the others answer 409 HE_01', async () => {
    const merchant_id = `race_${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => stack.api('POST', '/accounts', { merchant_id, merchant_name: `racer ${i}` }, stack.adminKey)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error).toMatchObject({ code: 'HE_01', param: 'merchant_id' });
    const db = await stack.db();
    expect(await db.collection('merchants').countDocuments({ merchant_id })).toBe(1);
    expect(await db.collection('merchant_ids').countDocuments({ merchant_id })).toBe(1);
    expect(await db.collection('business_profiles').countDocuments({ merchant_id })).toBe(1);
  });

  it('an id whose merchant was deleted before ids were kept is known by what it left: 409', async () => {
    const merchant_id = `legacy_${Date.now()}`;
    // What a merchant deleted before merchant_ids existed left behind: a payment, and no record of the id.
    await (await stack.db())
      .collection('payments')
      .insertOne({ payment_id: `pay_${'l'.repeat(26)}`, merchant_id, status: 'succeeded', amount: 1_000, currency: 'EUR' });
    const r = await stack.api('POST', '/accounts', { merchant_id }, stack.adminKey);
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'HE_01', param: 'merchant_id', message: expect.stringContaining('never reused') });
  });

  it("what a deleted merchant left is reached by no route with any key: admin, its old keys, another merchant's, none", async () => {
    // The old merchant O: a paid and refunded payment, a payment with a link, a customer, a connector account, a
    // second profile, its keys, and the events its payments gave.
    const o = await stack.merchant();
    const admin = stack.adminKey;
    const oAccount = await ok(stack.api('GET', `/accounts/${o.merchant_id}`, undefined, admin), 'O account');
    const mca = await ok(
      stack.api(
        'POST',
        `/account/${o.merchant_id}/connectors`,
        {
          connector_name: 'service_test',
          connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
        },
        admin,
      ),
      'O connector account',
    );
    const profile = await ok(stack.api('POST', `/account/${o.merchant_id}/business_profile`, { profile_name: 'second' }, admin), 'O profile');
    const keys = await ok(stack.api('GET', `/api_keys/${o.merchant_id}/list`, undefined, admin), 'O keys');
    const marker = 'left-by-the-deleted-merchant';
    const customer = await ok(
      stack.api('POST', '/customers', { customer_id: 'cus_deleted_owner', name: 'Old Customer', email: 'old@o.example', metadata: { marker } }, o.api_key),
      'O customer',
    );
    const paid = await ok(
      stack.api(
        'POST',
        '/payments',
        {
          amount: 5_000,
          currency: 'EUR',
          confirm: true,
          payment_method: 'pay_later',
          profile_id: oAccount.default_profile,
          customer_id: customer.customer_id,
          metadata: { marker },
        },
        o.api_key,
      ),
      'O paid',
    );
    expect(paid.status).toBe('succeeded');
    const refund = await ok(stack.api('POST', '/refunds', { payment_id: paid.payment_id, amount: 1_000, metadata: { marker } }, o.api_key), 'O refund');
    const linked = await ok(
      stack.api(
        'POST',
        '/payments',
        { amount: 2_000, currency: 'EUR', payment_link: true, profile_id: oAccount.default_profile, metadata: { marker } },
        o.api_key,
      ),
      'O link',
    );
    const db = await stack.db();
    // A mandate and a saved payment method of its customer (issue 22), written as the payment-state projection will:
    // the payment path that creates them is not merged yet.
    const mandateId = 'man_deleted_owner';
    await insertMandates(
      db,
      [mandateDoc({ mandate_id: mandateId, merchant_id: o.merchant_id, customer_id: customer.customer_id, original_payment_id: paid.payment_id })],
      [paymentMethodDoc({ payment_token: 'token_deleted_owner', merchant_id: o.merchant_id, customer_id: customer.customer_id, mandate_id: mandateId })],
    );
    // Every event its payments give is derived (no transition waits in the outbox), so what it left stands still.
    await until(async () => (await db.collection('transitions').countDocuments({ merchant_id: o.merchant_id, outbox: { $exists: true } })) === 0, "O's events");
    const event = await until(() => db.collection('events').findOne({ merchant_id: o.merchant_id }), "O's events");
    const ownedBy = (merchantId: string) =>
      Promise.all(
        ['payments', 'refunds', 'customers', 'events', 'payment_links', 'transitions', 'mandates', 'payment_methods'].map(async (c) =>
          JSON.stringify(
            (
              await db
                .collection(c)
                .find({ merchant_id: merchantId }, { projection: { _id: 0 } })
                .toArray()
            )
              .map((d) => JSON.stringify(d))
              .sort(),
          ),
        ),
      );

    await deleteMerchant(o.merchant_id);
    const before = await ownedBy(o.merchant_id);
    const providerCalls = (await stack.sandboxCalls()).length;
    // The attack: the next owner asks for the same id. Refused; were it not, the walk below tries the new owner's keys.
    const recreated = await stack.api('POST', '/accounts', { merchant_id: o.merchant_id, merchant_name: 'Next owner' }, admin);

    // Every key there is: none, the admin key, O's old secret and publishable keys, another merchant N's.
    const n = await stack.merchant();
    const nPk = (await ok(stack.api('GET', `/accounts/${n.merchant_id}`, undefined, admin), 'N account')).publishable_key;
    const keysToTry: Record<string, string | undefined> = {
      none: undefined,
      admin,
      'old secret': o.api_key,
      'old publishable': oAccount.publishable_key,
      'other secret': n.api_key,
      'other publishable': nPk,
    };
    if (recreated.status === 200) {
      keysToTry['next owner secret'] = (
        await ok(stack.api('POST', `/api_keys/${o.merchant_id}`, { name: 'next', expiration: 'never' }, admin), 'next owner key')
      ).api_key;
      keysToTry['next owner publishable'] = recreated.body.publishable_key;
    }
    // What only O's data holds: its objects' ids and secrets, and the marker in their metadata.
    const secrets = [
      marker,
      paid.payment_id,
      linked.payment_id,
      paid.client_secret,
      linked.client_secret,
      refund.refund_id,
      customer.customer_id,
      event.event_id,
      mca.merchant_connector_id,
      profile.profile_id,
      keys[0].key_id,
      linked.payment_link.payment_link_id,
      mandateId,
      'token_deleted_owner',
    ];
    const bodies: Record<string, unknown> = {
      'POST /accounts': { merchant_id: o.merchant_id },
      'POST /refunds': { payment_id: paid.payment_id, amount: 500 },
      'POST /payments/list': {},
      'POST /refunds/list': { payment_id: paid.payment_id },
      'POST /payments/:payment_id/confirm': { payment_method: 'pay_later', client_secret: linked.client_secret },
      'POST /payments/:payment_id/incremental_authorization': { amount: 9_000 },
      'POST /payment_link/:merchant_id/:payment_id/confirm': { payment_method: 'pay_later' },
      'POST /payment_link/s/:merchant_id/:payment_id/confirm': { payment_method: 'pay_later' },
    };
    const leaks: string[] = [];
    let calls = 0;
    // Deletions last: the admin key's DELETE /accounts would otherwise end a next owner before its keys are tried.
    for (const route of routesOfApp().sort((a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')))) {
      const [method, template] = route.split(' ');
      for (const paymentId of template.includes(':payment_id') ? [paid.payment_id, linked.payment_id] : [paid.payment_id]) {
        const path = template
          .replace(':merchant_id', o.merchant_id)
          .replace(':payment_id', paymentId)
          .replace(':payment_link_id', linked.payment_link.payment_link_id)
          .replace(':event_id', event.event_id)
          .replace(':customer_id', customer.customer_id)
          .replace(':mandate_id', mandateId)
          .replace(':refund_id', refund.refund_id)
          .replace(':dispute_id', `dp_${'0'.repeat(26)}`)
          .replace(':key_id', keys[0].key_id)
          .replace(':merchant_connector_id', mca.merchant_connector_id)
          .replace(':profile_id', profile.profile_id);
        const query = method === 'GET' ? `?client_secret=${paymentId === paid.payment_id ? paid.client_secret : linked.client_secret}` : '';
        for (const [kind, key] of Object.entries(keysToTry)) {
          const body = method === 'POST' ? (bodies[route] ?? {}) : undefined;
          const r = await stack.api(
            method,
            path + (route.endsWith('/list') || route === 'GET /health' ? '' : query),
            body,
            key,
            template.startsWith('/payment_link/s/') ? { 'sec-fetch-dest': 'iframe' } : {},
          );
          calls++;
          const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
          const leaked = secrets.filter((x) => text.includes(x));
          if (r.status >= 500 || leaked.length) leaks.push(`${method} ${path} (${kind}) -> ${r.status} ${leaked.join(',')} ${text.slice(0, 160)}`);
        }
      }
    }
    expect(calls).toBeGreaterThan(300);
    expect(leaks).toEqual([]);
    expect(recreated.status).toBe(409);
    // Nothing O left changed, and nothing was sent to a provider on its behalf.
    expect(await ownedBy(o.merchant_id)).toEqual(before);
    expect((await stack.sandboxCalls()).slice(providerCalls).filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe('URL fields of the admin API take only http(s)', () => {
  it('profile return_url and webhook_url: javascript:, data:, vbscript: are refused naming the field, and nothing changes', async () => {
    const { merchant_id } = await stack.merchant();
    const base = `/account/${merchant_id}/business_profile`;
    for (const bad of ['javascript:alert(document.domain)', 'data:text/html,x', 'vbscript:msgbox(1)']) {
      const r1 = await stack.api('POST', base, { profile_name: 'evil', return_url: bad }, stack.adminKey);
      expect(r1.status).toBe(400);
      expect(r1.body.error.param).toBe('return_url');
      const r2 = await stack.api('POST', base, { profile_name: 'evil', webhook_details: { webhook_url: bad } }, stack.adminKey);
      expect(r2.status).toBe(400);
      expect(r2.body.error.param).toBe('webhook_details.webhook_url');
    }
    const list = await stack.api('GET', `${base}`, undefined, stack.adminKey);
    expect(JSON.stringify(list.body)).not.toContain('evil');
    const ok = await stack.api(
      'POST',
      base,
      { profile_name: 'shop', return_url: 'https://shop.example/back', webhook_details: { webhook_url: 'https://shop.example/hooks' } },
      stack.adminKey,
    );
    expect(ok.status).toBe(200);
  });
});
