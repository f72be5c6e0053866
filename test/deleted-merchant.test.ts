// A deleted merchant (issue 9, S3): its links, client-side calls and not-yet-sent queued work stop; an operation
// the provider already has is still followed to its end. Also the admin API's URL fields (S2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
// Workers read credentials on every job here, so a deleted account cannot hide behind their cache.
beforeAll(async () => { stack = await Stack.start({ CREDENTIALS_TTL_MS: '0' }); });
afterAll(async () => stack?.stop());

const post = (url: string, headers: Record<string, string> = {}) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
const deleteMerchant = async (id: string) => expect((await stack.api('DELETE', `/accounts/${id}`, undefined, stack.adminKey)).status).toBe(200);

describe('a deleted merchant', () => {
  it('its open and secure links, their pay and 3DS calls answer 404, and nothing is paid', async () => {
    const { merchant_id, api_key } = await stack.merchant();
    const { body: open } = await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', payment_link: true }, api_key);
    const { body: secure } = await stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', payment_link: true, authentication_type: 'three_ds', payment_link_config: { allowed_domains: ['https://shop.example'] } }, api_key);
    expect((await fetch(open.payment_link.link)).status).toBe(200);
    await deleteMerchant(merchant_id);
    expect((await fetch(open.payment_link.link)).status).toBe(404);
    expect((await post(`${open.payment_link.link}/confirm`)).status).toBe(404);
    expect((await post(`${open.payment_link.link}/3ds/authentication`)).status).toBe(400); // the body is checked first
    expect((await fetch(secure.payment_link.secure_link, { headers: { 'sec-fetch-dest': 'iframe' } })).status).toBe(404);
    expect((await post(`${secure.payment_link.secure_link}/confirm`, { 'sec-fetch-site': 'same-origin' })).status).toBe(404);
    const auth = await fetch(`${secure.payment_link.secure_link}/3ds/authentication`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, body: JSON.stringify({ device_channel: 'BRW', threeds_method_comp_ind: 'U' }),
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
    expect((await stack.api('POST', `/payments/${p.payment_id}/confirm`, { client_secret: p.client_secret, payment_method: 'pay_later' }, pk)).status).toBe(401);
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
      for (let i = 0; i < 100 && !(await db.collection('payments').findOne({ payment_id: p.payment_id }))?.operations?.length; i++) await new Promise((r) => setTimeout(r, 50));
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
    ['the platform\'s default account', false],
    ['its own connector account (its credentials are retired, not destroyed)', true],
  ])('an authorization the provider already has is still followed through %s: the customer\'s decision is recorded', async (_name, ownAccount) => {
    const { merchant_id, api_key } = await stack.merchant();
    // Without accounts of its own the merchant is served by the default account (domain/connectors.ts DEFAULT_ACCOUNT_ID).
    let mca = 'mca_sandboxdefault000000';
    if (ownAccount) {
      const a = await stack.api('POST', `/account/${merchant_id}/connectors`, {
        connector_name: 'service_test', connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
      }, stack.adminKey);
      expect(a.status).toBe(200);
      mca = a.body.merchant_connector_id;
    }
    const { body: p } = await stack.api('POST', '/payments', {
      amount: 3_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', customer: { email: 'lea+redirect@example.com' },
    }, api_key);
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
    const ok = await stack.api('POST', base, { profile_name: 'shop', return_url: 'https://shop.example/back', webhook_details: { webhook_url: 'https://shop.example/hooks' } }, stack.adminKey);
    expect(ok.status).toBe(200);
  });
});
