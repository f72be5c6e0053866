// Mandates (issue 22), the pure part: what a confirm asks of a mandate, the checks of a recurring charge (off_session,
// status, the single_use limits), the connector's capability, the provider's reference, and the projections' rows.
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../workers/connectors/manifest.ts';
import { manifest as serviceTest } from '../workers/connectors/service_test/manifest.ts';
import { UNIFIED } from '../workers/connectors/kit/errors.ts';
import type { MandateResource } from '../lib/schemas/mandate.ts';
import { beginConfirm } from './begin.ts';
import { capabilityTable, mandateRefusal, useCapabilities } from './capabilities.ts';
import { chooseRoute, type RoutableAccount } from './routing.ts';
import { createIntent } from './intent.ts';
import { jobFor } from './job.ts';
import { MANDATE_REVOKED_UNIFIED_CODE, mandateOf, newMandateId, recurringRefusal, revokedAtProviderBy, savedPaymentMethodOf } from './mandates.ts';
import { applyOutcome } from './outcomes.ts';
import type { Decision, StoredPayment } from './payment.ts';

const now = '2026-11-22T10:00:00.000Z';
let n = 0;
function intent(body: Record<string, unknown> = {}): StoredPayment {
  return createIntent('m1', { amount: 1_000, currency: 'EUR', ...body } as never, {
    now: new Date(now),
    paymentId: `pay_${String(++n).padStart(26, '0')}`,
    clientSecret: (id) => `${id}_secret_x`,
    newCustomerId: () => 'cus_1',
    ephemeralSecret: () => 'epk_1',
  });
}
const apply = (d: Decision) => {
  if (d.kind !== 'apply') throw new Error(`expected apply, got ${JSON.stringify(d)}`);
  return d;
};
const acceptance = { acceptance_type: 'online', accepted_at: now, online: { ip_address: '203.0.113.9', user_agent: 'UA' } };
const singleUse = { amount: 5_000, currency: 'EUR', start_date: '2026-01-01T00:00:00Z', end_date: '2027-01-01T00:00:00Z' };
const firstBody = (over: Record<string, unknown> = {}) => ({
  customer_id: 'cus_a',
  payment_method: 'pay_later',
  payment_method_type: 'subscription_invoice',
  setup_future_usage: 'off_session',
  payment_type: 'new_mandate',
  mandate_data: { customer_acceptance: acceptance, mandate_type: { single_use: singleUse } },
  ...over,
});
const ctx = { now, operationId: 'op_a', connector: 'service_test' as const };

const mandate = (over: Partial<MandateResource> = {}): MandateResource => ({
  mandate_id: 'man_1',
  merchant_id: 'm1',
  customer_id: 'cus_a',
  status: 'active',
  payment_method: 'pay_later',
  payment_method_type: 'subscription_invoice',
  payment_token: 'token_1',
  connector: 'service_test',
  merchant_connector_id: null,
  connector_mandate_id: 'stm_1',
  customer_acceptance: acceptance as MandateResource['customer_acceptance'],
  mandate_type: { single_use: singleUse } as MandateResource['mandate_type'],
  original_payment_id: 'pay_first',
  created_at: now,
  revoked_at: null,
  ...over,
});

describe('a first payment that asks for a mandate', () => {
  it('gets its mandate_id at confirm (the same for a replay), a payment_token, and a job asking for a new mandate', () => {
    const p = intent(firstBody());
    const d = apply(beginConfirm(p, {}, ctx));
    expect(d.payment.mandate).toMatchObject({ kind: 'new', mandate_id: newMandateId('m1', p.payment_id), connector_mandate_id: null });
    expect(d.payment.mandate_id).toBe(newMandateId('m1', p.payment_id));
    expect(d.payment.attempts?.[0]?.mandate_id).toBe(d.payment.mandate_id);
    expect(apply(beginConfirm(p, {}, ctx)).payment.mandate_id).toBe(d.payment.mandate_id);
    expect(d.payment.payment_token).toMatch(/^token_/);
    expect(jobFor(d.payment, d.operation!).mandate).toEqual({ kind: 'new', mandate_id: d.payment.mandate_id, connector_mandate_id: null });
  });

  it("keeps the provider's reference, and the projections' rows appear once authorized", () => {
    const d = apply(beginConfirm(intent(firstBody()), {}, ctx));
    expect(mandateOf(d.payment)).toBeNull();
    const done = apply(applyOutcome(d.payment, 'op_a', { kind: 'CAPTURED', connector_transaction_id: 'stp_1', connector_mandate_id: 'stm_9' }, now)).payment;
    expect(done).toMatchObject({ status: 'succeeded', connector_mandate_id: 'stm_9' });
    expect(mandateOf(done)).toMatchObject({
      mandate_id: done.mandate_id,
      customer_id: 'cus_a',
      status: 'active',
      connector_mandate_id: 'stm_9',
      payment_token: done.payment_token,
    });
    expect(savedPaymentMethodOf(done)).toMatchObject({ payment_token: done.payment_token, setup_future_usage: 'off_session', mandate_id: done.mandate_id });
    const declined = apply(applyOutcome(d.payment, 'op_a', { kind: 'DECLINED', error_code: 'x' }, now)).payment;
    expect(mandateOf(declined)).toBeNull();
    expect(savedPaymentMethodOf(declined)).toBeNull();
  });

  it('needs a customer_id and the customer acceptance; amount 0 only for setup_mandate', () => {
    expect(beginConfirm(intent(firstBody({ customer_id: undefined })), {}, ctx)).toMatchObject({ kind: 'refused', code: 'IR_04', param: 'customer_id' });
    expect(beginConfirm(intent(firstBody({ mandate_data: { mandate_type: { single_use: singleUse } } })), {}, ctx)).toMatchObject({
      kind: 'refused',
      param: 'mandate_data.customer_acceptance',
    });
    expect(beginConfirm(intent(firstBody({ amount: 0 })), {}, ctx)).toMatchObject({ kind: 'refused', param: 'amount' });
    const setup = apply(beginConfirm(intent(firstBody({ amount: 0, payment_type: 'setup_mandate', setup_future_usage: undefined })), {}, ctx));
    expect(setup.payment.mandate?.kind).toBe('setup');
    expect(setup.operation?.amount).toBe(0);
  });

  it("takes the customer's acceptance given at confirm (customer_acceptance, the client's field)", () => {
    const p = intent(firstBody({ mandate_data: { mandate_type: { single_use: singleUse } } }));
    const d = apply(beginConfirm(p, { customer_acceptance: acceptance }, ctx));
    expect(d.payment.mandate?.customer_acceptance).toMatchObject({ acceptance_type: 'online' });
    expect(beginConfirm(p, { customer_acceptance: { acceptance_type: 'telepathy' } }, ctx)).toMatchObject({
      kind: 'refused',
      param: 'customer_acceptance.acceptance_type',
    });
  });

  it('on_session saves the payment method only: no mandate', () => {
    const d = apply(beginConfirm(intent(firstBody({ setup_future_usage: 'on_session', payment_type: undefined, mandate_data: undefined })), {}, ctx));
    expect(d.payment.mandate ?? null).toBeNull();
    const done = apply(applyOutcome(d.payment, 'op_a', { kind: 'CAPTURED' }, now)).payment;
    expect(savedPaymentMethodOf(done)).toMatchObject({ setup_future_usage: 'on_session', mandate_id: null });
    expect(mandateOf(done)).toBeNull();
  });
});

describe('a connector without mandates', () => {
  const none = { ...serviceTest, name: 'mondu', mandates: undefined } as Manifest;
  const st = serviceTest as Manifest;
  it('is refused up front, naming the field that asked', () => {
    expect(mandateRefusal(none, { payment_method_type: 'invoice' }, { kind: 'new', field: 'setup_future_usage' })).toMatchObject({
      code: 'IR_05',
      param: 'setup_future_usage',
    });
    expect(mandateRefusal(none, { payment_method_type: 'invoice' }, { kind: 'recurring', field: 'mandate_id' })).toMatchObject({ param: 'mandate_id' });
    const invoiceOnly = { ...st, mandates: { payment_method_types: ['invoice'], setup_mandate: false } } as Manifest;
    expect(mandateRefusal(invoiceOnly, { payment_method_type: 'direct_debit' }, { kind: 'new', field: 'payment_type' })).toMatchObject({
      param: 'payment_method_type',
    });
    expect(mandateRefusal(invoiceOnly, { payment_method_type: 'invoice' }, { kind: 'setup', field: 'payment_type' })).toMatchObject({ param: 'payment_type' });
    expect(mandateRefusal(st, { payment_method_type: 'subscription_direct_debit' }, { kind: 'setup', field: 'payment_type' })).toBeNull();
  });
});

describe('a recurring charge on a mandate', () => {
  const charge = (over: Record<string, unknown> = {}) => intent({ mandate_id: 'man_1', off_session: true, ...over });

  it('takes its payment method, customer and reference from the mandate; the job charges on it', () => {
    const d = apply(beginConfirm(charge(), {}, { ...ctx, mandates: { mandate: mandate() } }));
    expect(d.payment).toMatchObject({
      payment_method: 'pay_later',
      payment_method_type: 'subscription_invoice',
      customer_id: 'cus_a',
      mandate_id: 'man_1',
      connector_mandate_id: 'stm_1',
    });
    expect(d.payment.mandate?.kind).toBe('recurring');
    expect(jobFor(d.payment, d.operation!).mandate).toEqual({ kind: 'recurring', mandate_id: 'man_1', connector_mandate_id: 'stm_1' });
    // A recurring charge sets nothing up.
    const done = apply(applyOutcome(d.payment, 'op_a', { kind: 'CAPTURED' }, now)).payment;
    expect(mandateOf(done)).toBeNull();
    expect(savedPaymentMethodOf(done)).toBeNull();
  });

  it('needs off_session, an active mandate of this merchant, and the single_use limits', () => {
    const m = mandate();
    expect(recurringRefusal(charge({ off_session: undefined }), m, now)).toMatchObject({ code: 'IR_04', param: 'off_session' });
    expect(recurringRefusal(charge(), null, now)).toMatchObject({ param: 'mandate_id' });
    expect(recurringRefusal(charge(), mandate({ status: 'revoked' }), now)).toMatchObject({ param: 'mandate_id', message: expect.stringContaining('revoked') });
    expect(recurringRefusal(charge(), mandate({ status: 'expired' }), now)).toMatchObject({ param: 'mandate_id', message: expect.stringContaining('expired') });
    expect(recurringRefusal(charge({ currency: 'USD' }), m, now)).toMatchObject({ param: 'currency' });
    expect(recurringRefusal(charge({ amount: 5_001 }), m, now)).toMatchObject({ param: 'amount' });
    expect(recurringRefusal(charge({ amount: 5_000 }), m, now)).toBeNull();
    expect(recurringRefusal(charge(), m, '2025-12-31T23:59:59Z')).toMatchObject({ param: 'mandate_id', message: expect.stringContaining('starts') });
    expect(recurringRefusal(charge(), m, '2027-01-02T00:00:00Z')).toMatchObject({ param: 'mandate_id', message: expect.stringContaining('ended') });
    expect(recurringRefusal(charge({ customer_id: 'cus_b' }), m, now)).toMatchObject({ param: 'mandate_id' });
    expect(recurringRefusal(charge(), mandate({ mandate_type: null }), now)).toBeNull();
  });

  it('through the connector that holds the mandate only', () => {
    const d = beginConfirm(charge(), {}, { ...ctx, mandates: { mandate: mandate({ connector: 'mondu' }) } });
    expect(d).toMatchObject({ kind: 'refused', param: 'mandate_id' });
  });

  it('a payment_token with a mandate charges on it off-session; on-session it fills the payment method only', () => {
    const pm = {
      payment_token: 'token_1',
      customer_id: 'cus_a',
      payment_method: 'pay_later',
      payment_method_type: 'subscription_invoice',
      setup_future_usage: 'off_session' as const,
      connector: 'service_test',
      merchant_connector_id: null,
      mandate_id: 'man_1',
      created_at: now,
      last_used_at: null,
    };
    const off = apply(
      beginConfirm(intent({ payment_token: 'token_1', off_session: true }), {}, { ...ctx, mandates: { mandate: mandate(), paymentMethod: pm } }),
    );
    expect(off.payment).toMatchObject({ mandate_id: 'man_1', customer_id: 'cus_a', payment_method_type: 'subscription_invoice' });
    const on = apply(beginConfirm(intent({ payment_token: 'token_1' }), {}, { ...ctx, mandates: { paymentMethod: pm } }));
    expect(on.payment).toMatchObject({ mandate_id: null, payment_method: 'pay_later', payment_method_type: 'subscription_invoice', customer_id: 'cus_a' });
    expect(beginConfirm(intent({ payment_token: 'token_x', payment_method: 'pay_later' }), {}, ctx)).toMatchObject({ kind: 'refused', param: 'payment_token' });
  });

  it('refused by the provider as revoked: the mandate is revoked by the projection', () => {
    expect(MANDATE_REVOKED_UNIFIED_CODE).toBe(UNIFIED.mandate_revoked.unified_code);
    const d = apply(beginConfirm(charge(), {}, { ...ctx, mandates: { mandate: mandate() } }));
    const failed = apply(applyOutcome(d.payment, 'op_a', { kind: 'DECLINED', error_code: 'mandate_revoked', ...UNIFIED.mandate_revoked }, now)).payment;
    expect(revokedAtProviderBy(failed)).toBe('man_1');
    const declined = apply(applyOutcome(d.payment, 'op_a', { kind: 'DECLINED', error_code: 'recurring_declined', ...UNIFIED.customer_declined }, now)).payment;
    expect(revokedAtProviderBy(declined)).toBeNull();
  });
});

describe('routing a payment that asks for a mandate', () => {
  it('skips the accounts whose connector keeps no mandate; a forced one is refused naming the field', () => {
    const handed = capabilityTable();
    // A connector without mandates that serves anything else (whatever the real manifests declare by now).
    useCapabilities({ ...handed, mondu: { ...(serviceTest as Manifest), name: 'mondu', mandates: null } });
    try {
      const account = (id: string, connector_name: RoutableAccount['connector_name']): RoutableAccount => ({
        merchant_connector_id: id,
        connector_name,
        connector_label: id,
        disabled: false,
        payment_methods_enabled: null,
      });
      const input = {
        forced: null,
        routing: null,
        profileRouting: null,
        accounts: [account('mca_none', 'mondu'), account('mca_st', 'service_test')],
        merchantHasAccounts: true,
        paymentMethodType: 'subscription_invoice',
        currency: 'EUR',
        country: null,
        customerType: 'B2C' as const,
        random: () => 0.5,
      };
      expect(chooseRoute(input)).toMatchObject({ merchant_connector_id: 'mca_none' });
      const asked = { kind: 'new' as const, field: 'setup_future_usage' };
      expect(chooseRoute({ ...input, mandate: asked })).toMatchObject({ merchant_connector_id: 'mca_st' });
      expect(chooseRoute({ ...input, mandate: asked, forced: ['mondu'] })).toMatchObject({ param: 'setup_future_usage' });
    } finally {
      useCapabilities(handed);
    }
  });
});
