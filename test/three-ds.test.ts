// External 3DS authentication (spec 4.6) through the real processes: a payment confirmed with authentication_type
// three_ds waits for the customer's device, which calls POST /payments/{id}/3ds/authentication with the
// publishable key and the client_secret; the 3DS server (the sandbox's) answers; on Y/A the provider authorizes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let pk: string;
let merchantId: string;
beforeAll(async () => {
  ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant());
  pk = (await stack.api('GET', `/accounts/${merchantId}`, undefined, stack.adminKey)).body.publishable_key;
});
afterAll(async () => stack?.stop());

const BROWSER = {
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
  accept_header: 'text/html',
  language: 'de-DE',
  color_depth: 24,
  screen_height: 1080,
  screen_width: 1920,
  time_zone: -60,
  java_enabled: false,
  java_script_enabled: true,
  ip_address: '203.0.113.7',
};
const SDK = {
  sdk_app_id: 'app-1',
  sdk_enc_data: 'ZW5jcnlwdGVk',
  sdk_ephem_pub_key: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' },
  sdk_trans_id: 'sdk-trans-1',
  sdk_reference_number: 'REF-1',
  sdk_max_timeout: 15,
};

/** A payment confirmed with three_ds by the customer's browser, waiting for the authentication. */
async function awaiting(email = 'jane@example.com', extra: Record<string, unknown> = {}) {
  const created = await stack.api(
    'POST',
    '/payments',
    {
      amount: 12_000,
      currency: 'EUR',
      capture_method: 'manual',
      authentication_type: 'three_ds',
      customer: { email },
      return_url: 'https://shop.example/done',
      ...extra,
    },
    key,
  );
  expect(created.status).toBe(200);
  const p = created.body;
  const c = await stack.api(
    'POST',
    `/payments/${p.payment_id}/confirm`,
    { client_secret: p.client_secret, payment_method: 'pay_later', payment_method_type: 'invoice', browser_info: BROWSER },
    pk,
  );
  expect(c.status).toBe(200);
  return { ...c.body, client_secret: p.client_secret as string };
}
const authenticate = (p: { payment_id: string; client_secret: string }, body: Record<string, unknown> = {}, apiKey = pk) =>
  stack.api(
    'POST',
    `/payments/${p.payment_id}/3ds/authentication`,
    { client_secret: p.client_secret, device_channel: 'BRW', threeds_method_comp_ind: 'N', ...body },
    apiKey,
  );
const providerCalls = async () => (await stack.sandboxCalls({ provider: 'service_test' })).filter((c) => c.method === 'POST');
const threeDsCalls = async () => await stack.sandboxCalls({ provider: 'three_ds_server', path: '/three_ds_server/v1/authentications' });
const transactions = async (): Promise<any[]> => (await stack.sandbox(`/__sandbox/three_ds_server/transactions`)).json();
const stored = async (id: string) => (await stack.db()).collection('payments').findOne({ merchant_id: merchantId, payment_id: id });
const transitions = async () => (await stack.db()).collection('transitions').countDocuments({});

describe('a three_ds payment waits for the customer', () => {
  it('confirm: requires_customer_action with next_action three_ds_invoke; the provider is not called yet', async () => {
    const before = (await providerCalls()).length;
    const p = await awaiting();
    expect(p).toMatchObject({
      status: 'requires_customer_action',
      authentication_type: 'three_ds',
      external_3ds_authentication_attempted: false,
      next_action: {
        type: 'three_ds_invoke',
        redirect_to_url: null,
        three_ds_data: { three_ds_authentication_url: expect.stringMatching(new RegExp(`/payments/${p.payment_id}/3ds/authentication$`)) },
      },
    });
    // The attempts are the merchant's to read: the browser's answer (publishable key) does not carry them.
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.attempts[0].status).toBe('authentication_pending');
    expect((await providerCalls()).length).toBe(before);
  });
});

describe('POST /payments/{id}/3ds/authentication', () => {
  it('frictionless (Y) from the browser: the answer of spec 4.6, then the provider authorizes -> requires_capture', async () => {
    const p = await awaiting();
    const a = await authenticate(p, { browser_info: BROWSER });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      trans_status: 'Y',
      three_ds_requestor_url: expect.any(String),
      acs_url: null,
      challenge_request: null,
      acs_reference_number: 'SANDBOX-ACS-REF-0001',
      acs_trans_id: expect.any(String),
      three_dsserver_trans_id: expect.any(String),
      acs_signed_content: null,
    });
    const done = await stack.poll(p.payment_id, key, (x) => x.status === 'requires_capture');
    expect(done).toMatchObject({
      amount_capturable: 12_000,
      next_action: null,
      external_3ds_authentication_attempted: true,
      external_authentication_details: {
        status: 'success',
        authentication_flow: 'frictionless',
        electronic_commerce_indicator: '05',
        version: '2.2.0',
        ds_transaction_id: expect.any(String),
      },
    });
    expect(done.attempts[0].status).toBe('authorized');
    // One AReq at the 3DS server, and one authorization at the provider keyed by the operation that followed it.
    const t = (await transactions()).filter((x) => x.threeDSServerTransID === a.body.three_dsserver_trans_id);
    expect(t).toHaveLength(1);
    expect(t[0]).toMatchObject({ deviceChannel: '02', purchaseAmount: 12_000, purchaseCurrency: 'EUR', notificationURL: 'https://shop.example/done' });
    const ops = (await stored(p.payment_id))!.operations;
    expect(ops.map((o: any) => o.kind)).toEqual(['authenticate', 'authorize']);
    expect((await providerCalls()).filter((c) => c.idempotency_key === ops[1].operation_id)).toHaveLength(1);
    // The merchant captures as usual.
    expect((await stack.api('POST', `/payments/${p.payment_id}/capture`, {}, key)).body).toMatchObject({ status: 'succeeded', amount_received: 12_000 });
  });

  it('from an app (APP with sdk_information), with the secret key and no client_secret; attempted (A) also authorizes', async () => {
    const p = await awaiting('app+3ds_attempted@example.com', { capture_method: 'automatic' });
    const a = await stack.api(
      'POST',
      `/payments/${p.payment_id}/3ds/authentication`,
      { device_channel: 'APP', threeds_method_comp_ind: 'U', sdk_information: SDK },
      key,
    );
    expect(a.status).toBe(200);
    expect(a.body.trans_status).toBe('A');
    const done = await stack.poll(p.payment_id, key, (x) => x.status === 'succeeded');
    expect(done.external_authentication_details).toMatchObject({ status: 'success', electronic_commerce_indicator: '06' });
    const t = (await transactions()).find((x) => x.threeDSServerTransID === a.body.three_dsserver_trans_id);
    expect(t).toMatchObject({ deviceChannel: '01' });
  });

  it('challenge (C): acs_url and challenge_request; the customer completes it at the ACS; the result is read -> requires_capture', async () => {
    const p = await awaiting('carl+3ds_challenge@example.com');
    const a = await authenticate(p);
    expect(a.body).toMatchObject({ trans_status: 'C', acs_url: `${stack.sandboxUrl}/three_ds_server/acs/challenge`, challenge_request: expect.any(String) });
    const waiting = (await stack.api('GET', `/payments/${p.payment_id}?client_secret=${p.client_secret}`, undefined, pk)).body;
    expect(waiting).toMatchObject({
      status: 'requires_customer_action',
      next_action: { type: 'redirect_to_url' },
      external_authentication_details: { status: 'pending', authentication_flow: 'challenge' },
    });
    // The device repeating its call gets the same authentication, not a second one.
    const again = await authenticate(p);
    expect(again.body).toEqual(a.body);
    // The customer's browser: the ACS page from next_action, then "Confirm"; the ACS sends them back to the merchant.
    const page = await fetch(waiting.next_action.redirect_to_url);
    expect(await page.text()).toContain('Confirm the purchase');
    const answer = await fetch(`${stack.sandboxUrl}/three_ds_server/acs/challenge/${a.body.acs_trans_id}/complete`, { method: 'POST', redirect: 'manual' });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('https://shop.example/done');
    const done = await stack.poll(p.payment_id, key, (x) => x.status === 'requires_capture');
    expect(done.external_authentication_details).toMatchObject({ status: 'success', authentication_flow: 'challenge' });
    // The result was read from the 3DS server (a status sync), not taken from the browser.
    const reads = await stack.sandboxCalls({ provider: 'three_ds_server', path: `/three_ds_server/v1/authentications/${a.body.three_dsserver_trans_id}` });
    expect(reads.filter((c) => c.method === 'GET').length).toBeGreaterThanOrEqual(1);
    expect((await transactions()).filter((x) => x.acsTransID === a.body.acs_trans_id)).toHaveLength(1);
  });

  it('a failed challenge, or N/R/U from the 3DS server: failed with the error fields, and a manual retry asks again', async () => {
    const p = await awaiting('dora+3ds_challenge@example.com');
    const a = await authenticate(p);
    await fetch(`${stack.sandboxUrl}/three_ds_server/acs/challenge/${a.body.acs_trans_id}/fail`, { method: 'POST', redirect: 'manual' });
    const failed = await stack.poll(p.payment_id, key, (x) => x.status === 'failed');
    expect(failed).toMatchObject({
      error_code: 'authentication_failed',
      unified_code: 'UE_5000',
      manual_retry_allowed: true,
      external_authentication_details: { status: 'failed', authentication_flow: 'challenge', error_code: 'authentication_failed' },
    });
    expect(failed.error_message).toContain('trans_status N');
    for (const [tag, status] of [
      ['3ds_fail', 'N'],
      ['3ds_reject', 'R'],
      ['3ds_unavailable', 'U'],
    ]) {
      const q = await awaiting(`eve+${tag}@example.com`);
      const r = await authenticate(q);
      expect(r.body.trans_status).toBe(status);
      const after = await stack.poll(q.payment_id, key, (x) => x.status === 'failed');
      expect(after.attempts[0].status).toBe('authentication_failed');
      expect(after.error_message).toContain(`trans_status ${status}`);
    }
    const before = (await providerCalls()).length;
    const retry = await stack.api('POST', `/payments/${p.payment_id}/confirm`, { payment_method: 'pay_later' }, key);
    expect(retry.body).toMatchObject({ status: 'requires_customer_action', attempt_count: 2, next_action: { type: 'three_ds_invoke' } });
    expect((await providerCalls()).length).toBe(before);
  });

  it('decoupled (D): the customer authenticates elsewhere; the status sync reads the result and the provider authorizes', async () => {
    const p = await awaiting('fay+3ds_decoupled@example.com');
    const a = await authenticate(p);
    expect(a.body.trans_status).toBe('D');
    const done = await stack.poll(p.payment_id, key, (x) => x.status === 'requires_capture');
    expect(done.external_authentication_details).toMatchObject({ status: 'success', authentication_flow: 'challenge' });
  });

  it('20 concurrent calls from the device: one authentication at the 3DS server, one authorization at the provider', async () => {
    const p = await awaiting('gus+3ds_challenge@example.com');
    const answers = await Promise.all(Array.from({ length: 20 }, () => authenticate(p)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((r) => r.body.three_dsserver_trans_id)).size).toBe(1);
    const ops = (await stored(p.payment_id))!.operations;
    expect(ops.filter((o: any) => o.kind === 'authenticate')).toHaveLength(1);
    expect((await threeDsCalls()).filter((c) => c.idempotency_key === ops[0].operation_id && c.status === 201).length).toBeGreaterThanOrEqual(1);
    expect((await transactions()).filter((x) => x.acsTransID === answers[0].body.acs_trans_id)).toHaveLength(1);
    await fetch(`${stack.sandboxUrl}/three_ds_server/acs/challenge/${answers[0].body.acs_trans_id}/complete`, { method: 'POST', redirect: 'manual' });
    await stack.poll(p.payment_id, key, (x) => x.status === 'requires_capture');
    const after = (await stored(p.payment_id))!.operations;
    expect(after.filter((o: any) => o.kind === 'authorize')).toHaveLength(1);
    expect((await providerCalls()).filter((c) => c.idempotency_key === after[1].operation_id)).toHaveLength(1);
  });

  it('a cancel while the challenge is pending is local: cancelled, no provider call; its later result changes nothing', async () => {
    const p = await awaiting('hal+3ds_challenge@example.com');
    const a = await authenticate(p);
    const before = (await providerCalls()).length;
    const c = await stack.api('POST', `/payments/${p.payment_id}/cancel`, { cancellation_reason: 'abandoned' }, key);
    expect(c.body).toMatchObject({ status: 'cancelled', cancellation_reason: 'abandoned', amount_cancelled: 12_000, next_action: null });
    await fetch(`${stack.sandboxUrl}/three_ds_server/acs/challenge/${a.body.acs_trans_id}/complete`, { method: 'POST', redirect: 'manual' });
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.status).toBe('cancelled');
    expect((await providerCalls()).length).toBe(before);
  });
});

describe('crashes and repeats', () => {
  it('the worker crashes: the call answers trans_status null; after the restart the authentication completes once and a repeated call learns it', async () => {
    const p = await awaiting();
    await stack.kill('worker');
    try {
      const first = await authenticate(p);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ trans_status: null, three_dsserver_trans_id: null });
      expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body).toMatchObject({
        status: 'processing',
        external_authentication_details: { status: 'started' },
      });
    } finally {
      await stack.startPart('worker');
    }
    const done = await stack.poll(p.payment_id, key, (x) => x.status === 'requires_capture');
    expect(done.external_authentication_details.status).toBe('success');
    const again = await authenticate(p);
    expect(again.body).toMatchObject({ trans_status: 'Y', three_dsserver_trans_id: expect.any(String) });
    expect((await transactions()).filter((x) => x.threeDSServerTransID === again.body.three_dsserver_trans_id)).toHaveLength(1);
    const ops = (await stored(p.payment_id))!.operations;
    expect(ops.map((o: any) => o.kind)).toEqual(['authenticate', 'authorize']);
    expect((await providerCalls()).filter((c) => c.idempotency_key === ops[1].operation_id && c.status === 201)).toHaveLength(1);
  });

  it('the 3DS server fails twice (HTTP 500): retried with the same Idempotency-Key, one transaction', async () => {
    const p = await awaiting('kim+flaky@example.com');
    const a = await authenticate(p);
    expect(a.body.trans_status).toBe('Y');
    const opId = (await stored(p.payment_id))!.operations[0].operation_id;
    const calls = (await threeDsCalls()).filter((c) => c.idempotency_key === opId);
    expect(calls.map((c) => c.status)).toEqual([500, 500, 201]);
    expect((await transactions()).filter((x) => x.threeDSServerTransID === a.body.three_dsserver_trans_id)).toHaveLength(1);
    // The authorization follows (flaky at the provider too: retried, authorized once).
    await stack.poll(p.payment_id, key, (x) => x.status === 'requires_capture');
  });
});

describe('refusals change nothing', () => {
  it('bad bodies: 400 naming the field', async () => {
    const p = await awaiting();
    const before = await transitions();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ device_channel: 'WEB' }, 'IR_05', 'device_channel'],
      [{ device_channel: undefined }, 'IR_04', 'device_channel'],
      [{ threeds_method_comp_ind: 'X' }, 'IR_05', 'threeds_method_comp_ind'],
      [{ device_channel: 'APP' }, 'IR_05', 'sdk_information'],
      [{ device_channel: 'APP', sdk_information: { ...SDK, sdk_max_timeout: 2 } }, 'IR_05', 'sdk_information.sdk_max_timeout'],
      [{ device_channel: 'APP', sdk_information: { ...SDK, sdk_trans_id: undefined } }, 'IR_04', 'sdk_information.sdk_trans_id'],
      [{ sdk_information: SDK }, 'IR_05', 'sdk_information'],
      [{ browser_info: { user_agent: 5 } }, 'IR_05', 'browser_info.user_agent'],
      [{ acs_url: 'x' }, 'IR_07', 'acs_url'],
    ];
    for (const [body, code, param] of cases) {
      const r = await authenticate(p, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error, JSON.stringify(body)).toMatchObject({ code, param });
    }
    expect(await transitions()).toBe(before);
  });

  it('BRW without any browser data: 400 IR_04 browser_info', async () => {
    const created = (
      await stack.api('POST', '/payments', { amount: 500, currency: 'EUR', authentication_type: 'three_ds', confirm: true, payment_method: 'pay_later' }, key)
    ).body;
    expect(created.status).toBe('requires_customer_action');
    const before = await transitions();
    const r = await stack.api('POST', `/payments/${created.payment_id}/3ds/authentication`, { device_channel: 'BRW', threeds_method_comp_ind: 'Y' }, key);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'IR_04', param: 'browser_info' });
    expect(await transitions()).toBe(before);
  });

  it("client_secret rules: missing or expired IR_08, another payment's IR_09, with a secret key refused; unknown payment 404", async () => {
    const a = await awaiting();
    const b = await awaiting();
    const expired = (
      await stack.api(
        'POST',
        '/payments',
        { amount: 500, currency: 'EUR', authentication_type: 'three_ds', session_expiry: 1, confirm: true, payment_method: 'pay_later', browser_info: BROWSER },
        key,
      )
    ).body;
    const before = await transitions();
    expect((await authenticate({ payment_id: a.payment_id, client_secret: '' })).body.error).toMatchObject({ code: 'IR_08', param: 'client_secret' });
    expect((await authenticate({ payment_id: a.payment_id, client_secret: b.client_secret })).body.error).toMatchObject({
      code: 'IR_09',
      param: 'client_secret',
    });
    const withSecretKey = await authenticate(a, {}, key);
    expect(withSecretKey.status).toBe(400);
    expect(withSecretKey.body.error.param).toBe('client_secret');
    expect((await authenticate({ payment_id: `pay_${'x'.repeat(26)}`, client_secret: a.client_secret })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await authenticate(expired)).body.error).toMatchObject({ code: 'IR_08', message: expect.stringContaining('expired') });
    expect(await transitions()).toBe(before);
  });

  it('a payment not waiting for 3DS: IR_16 (not confirmed, no_three_ds, a provider redirect, cancelled)', async () => {
    const notConfirmed = (await stack.api('POST', '/payments', { amount: 500, currency: 'EUR', authentication_type: 'three_ds' }, key)).body;
    const noThreeDs = (await stack.api('POST', '/payments', { amount: 500, currency: 'EUR', confirm: true, payment_method: 'pay_later' }, key)).body;
    const redirected = (
      await stack.api(
        'POST',
        '/payments',
        { amount: 500, currency: 'EUR', confirm: true, payment_method: 'pay_later', customer: { email: 'ivy+redirect@example.com' } },
        key,
      )
    ).body;
    expect(redirected.status).toBe('requires_customer_action');
    const cancelled = await awaiting();
    await stack.api('POST', `/payments/${cancelled.payment_id}/cancel`, {}, key);
    const before = await transitions();
    for (const p of [notConfirmed, noThreeDs, redirected, cancelled]) {
      const r = await stack.api(
        'POST',
        `/payments/${p.payment_id}/3ds/authentication`,
        { device_channel: 'BRW', threeds_method_comp_ind: 'N', browser_info: BROWSER },
        key,
      );
      expect(r.status, p.status).toBe(400);
      expect(r.body.error.code).toBe('IR_16');
    }
    expect(await transitions()).toBe(before);
  });
});
