// The payment page's forms (issue 23): amounts in the summary, and a form's bad field named in its words before
// anything is asked of payment-state.
import { describe, expect, it } from 'vitest';
import { createIntent } from '../../domain/intent.ts';
import type { StoredPayment } from '../../domain/payment.ts';
import type { Deps } from '../operations.ts';
import { amountsOf, newFormKey, runAction } from './payment-actions.ts';

const base = createIntent(
  'm1',
  { amount: 10_000, currency: 'EUR' },
  {
    now: new Date(),
    paymentId: `pay_${'2'.repeat(26)}`,
    clientSecret: (id) => `${id}_secret_x`,
    newCustomerId: () => 'cus_1',
    ephemeralSecret: () => 'epk_1',
  },
);
const refund = (refund_id: string, amount: number, status: 'succeeded' | 'pending' | 'failed') =>
  ({ refund_id, amount, status }) as NonNullable<StoredPayment['refunds']>[number];

describe('payment page actions', () => {
  it('amounts: authorized, captured, refunded (failed refunds not counted) and what is left to refund', () => {
    const p: StoredPayment = {
      ...base,
      status: 'succeeded',
      amount_received: 10_000,
      amount_capturable: 0,
      operations: [
        {
          operation_id: 'op_1',
          kind: 'authorize',
          ref: 'a',
          amount: 10_000,
          connector: 'service_test',
          open: false,
          status_before: 'requires_confirmation',
          last_outcome: 'CAPTURED',
          created_at: base.created,
        },
      ],
      refunds: [refund('r1', 1_000, 'succeeded'), refund('r2', 500, 'pending'), refund('r3', 9_000, 'failed')],
    };
    expect(amountsOf(p)).toEqual({ authorized: 10_000, captured: 10_000, capturable: 0, refunded: 1_000, refundPending: 500, refundable: 8_500 });
    expect(amountsOf(base)).toMatchObject({ authorized: 0, captured: 0, refundable: 0 });
  });

  it("a bad amount or a missing form key is the form's error, naming the field; payment-state is not asked", async () => {
    const deps = new Proxy(
      {},
      {
        get: () => {
          throw new Error('must not be reached');
        },
      },
    ) as Deps;
    expect(await runAction(deps, 'm1', base, 'capture', { idempotency_key: newFormKey(), amount: '12,50' })).toEqual({
      ok: false,
      field: 'amount',
      message: 'Amount: must be an amount in EUR like 12.50',
    });
    expect(await runAction(deps, 'm1', base, 'refund', { idempotency_key: newFormKey(), amount: '1.234' })).toMatchObject({ ok: false, field: 'amount' });
    expect(await runAction(deps, 'm1', base, 'cancel', {})).toEqual({
      ok: false,
      field: 'idempotency_key',
      message: 'Form: is missing or damaged: reload the page and send the form again',
    });
    expect(await runAction(deps, 'm1', base, 'refund', { idempotency_key: newFormKey(), colour: 'red' })).toMatchObject({
      ok: false,
      message: 'Unknown field: colour',
    });
  });
});
