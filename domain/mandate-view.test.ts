// mandateView (issue 22, api lane): the mandate a payment sets up, as GET /mandates/{mandate_id} answers it and as the
// mandate_active event carries it. The payment's mandate part is set by hand (core lane's decisions set it).
import { describe, expect, it } from 'vitest';
import { MandateResource } from '../lib/schemas/mandate.ts';
import { createIntent } from './intent.ts';
import { mandateView, type PaymentMandate } from './mandates.ts';
import type { StoredPayment } from './payment.ts';

const now = '2026-11-23T10:00:00.000Z';
const part = (kind: PaymentMandate['kind'], connector_mandate_id: string | null = null): PaymentMandate => ({
  kind,
  mandate_id: 'man_1',
  customer_acceptance: { acceptance_type: 'offline' },
  mandate_type: { single_use: { amount: 5_000, currency: 'EUR', end_date: '2027-01-01T00:00:00.000Z' } },
  connector_mandate_id,
});
function payment(extra: Partial<StoredPayment> = {}, body: Record<string, unknown> = { customer: { id: 'cus_1' } }): StoredPayment {
  const p = createIntent('m1', { amount: 5_000, currency: 'EUR', ...body } as never, {
    now: new Date(now),
    paymentId: 'pay_00000000000000000000000001',
    clientSecret: (id) => `${id}_secret_x`,
    newCustomerId: () => 'cus_new',
    ephemeralSecret: () => 'epk_1',
  });
  return { ...p, connector: 'service_test', payment_method: 'pay_later', payment_method_type: 'subscription_invoice', ...extra };
}

describe('mandateView', () => {
  it('a new or setup mandate part: the resource, valid by its schema, with the payment as its origin', () => {
    for (const kind of ['new', 'setup'] as const) {
      const v = mandateView(payment({ mandate: part(kind, 'prov_1'), merchant_connector_id: 'mca_1', payment_token: 'token_1' }));
      expect(MandateResource.parse(v)).toEqual(v);
      expect(v).toEqual({
        mandate_id: 'man_1',
        merchant_id: 'm1',
        customer_id: 'cus_1',
        status: 'active',
        payment_method: 'pay_later',
        payment_method_type: 'subscription_invoice',
        payment_token: 'token_1',
        connector: 'service_test',
        merchant_connector_id: 'mca_1',
        connector_mandate_id: 'prov_1',
        customer_acceptance: { acceptance_type: 'offline' },
        mandate_type: { single_use: { amount: 5_000, currency: 'EUR', end_date: '2027-01-01T00:00:00.000Z' } },
        original_payment_id: 'pay_00000000000000000000000001',
        created_at: v!.created_at,
        revoked_at: null,
      });
    }
  });

  it("the provider's reference from the payment when the part has none yet; deterministic", () => {
    const p = payment({ mandate: part('new'), connector_mandate_id: 'prov_2' });
    expect(mandateView(p)?.connector_mandate_id).toBe('prov_2');
    expect(mandateView(p)).toEqual(mandateView(structuredClone(p)));
  });

  it('none: no mandate part, a recurring charge, no customer, no connector', () => {
    expect(mandateView(payment())).toBeNull();
    expect(mandateView(payment({ mandate: null }))).toBeNull();
    expect(mandateView(payment({ mandate: part('recurring', 'prov_1') }))).toBeNull();
    expect(mandateView(payment({ mandate: part('new'), connector: null }))).toBeNull();
    const anonymous = payment({ mandate: part('new') }, {});
    expect(mandateView({ ...anonymous, customer: null, customer_id: null })).toBeNull();
  });
});
