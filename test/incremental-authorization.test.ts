// Incremental authorization (spec 4.5) through the real processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
beforeAll(async () => ({ stack, api_key: key } = await Stack.withMerchant()));
afterAll(async () => stack?.stop());

const authorized = async (extra: Record<string, unknown> = { request_incremental_authorization: true }) => {
  const r = await stack.api(
    'POST',
    '/payments',
    { amount: 10_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', capture_method: 'manual', ...extra },
    key,
  );
  expect(r.body.status).toBe('requires_capture');
  return r.body;
};
const increment = (id: string, body: unknown) => stack.api('POST', `/payments/${id}/incremental_authorization`, body, key);

describe('incremental authorization', () => {
  it('success: the provider approves the new total; amounts grow and the payment can be captured in full', async () => {
    const p = await authorized();
    expect(p.incremental_authorization_allowed).toBe(true);
    const r = await increment(p.payment_id, { amount: 15_000, reason: 'more items' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'requires_capture', amount: 15_000, net_amount: 15_000, amount_capturable: 15_000, authorization_count: 1 });
    expect(r.body.incremental_authorizations).toEqual([
      {
        authorization_id: expect.stringMatching(/^auth_/),
        amount: 15_000,
        status: 'success',
        previously_authorized_amount: 10_000,
        error_code: null,
        error_message: null,
      },
    ]);
    const cap = await stack.api('POST', `/payments/${p.payment_id}/capture`, {}, key);
    expect(cap.body).toMatchObject({ status: 'succeeded', amount_received: 15_000 });
  });

  it('failure: the provider declines; the row says failure with the error and the payment is unchanged', async () => {
    const p = await authorized();
    const r = await increment(p.payment_id, { amount: 25_000 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'requires_capture', amount: 10_000, amount_capturable: 10_000, authorization_count: 0 });
    expect(r.body.incremental_authorizations[0]).toMatchObject({ status: 'failure', amount: 25_000, error_code: 'credit_limit_exceeded' });
  });

  it('refused where not allowed: not asked for (IR_16), not in requires_capture (IR_16), not above the amount (IR_05)', async () => {
    const plain = await authorized({});
    expect((await increment(plain.payment_id, { amount: 12_000 })).body.error.code).toBe('IR_16');
    const p = await authorized();
    expect((await increment(p.payment_id, { amount: 10_000 })).body.error).toMatchObject({ code: 'IR_05', param: 'amount' });
    await stack.api('POST', `/payments/${p.payment_id}/capture`, {}, key);
    expect((await increment(p.payment_id, { amount: 12_000 })).body.error.code).toBe('IR_16');
    expect((await increment(p.payment_id, {})).body.error).toMatchObject({ code: 'IR_04', param: 'amount' });
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.authorization_count).toBe(0);
  });
});
