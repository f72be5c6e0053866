// A connector's capabilities, checked before a job is queued: each refusal names the field or the capability.
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../workers/connectors/manifest.ts';
import { manifest as billie } from '../workers/connectors/billie/manifest.ts';
import { MANIFESTS } from '../workers/connectors/manifests.ts';
import { manifest as mondu } from '../workers/connectors/mondu/manifest.ts';
import { manifest as serviceTest } from '../workers/connectors/service_test/manifest.ts';
import { captureRefusal, confirmRefusal, customerType, fieldsNeeded, refundRefusal } from './capabilities.ts';
import type { StoredPayment } from './payment.ts';

const b2b: Manifest = {
  ...serviceTest,
  name: 'mondu',
  capture_methods: ['automatic', 'manual'],
  partial_capture: false,
  partial_refund: false,
  countries: ['DE', 'AT'],
  currencies: ['EUR'],
  customers: ['B2B'],
  required_fields: ['metadata.company_name', 'metadata.legal_form'],
  flows: ['authorize', 'capture', 'void'],
} as Manifest;
const payment = (over: Partial<StoredPayment> = {}) =>
  ({
    capture_method: 'automatic',
    currency: 'EUR',
    billing: { address: { country: 'DE' } },
    metadata: { buyer_type: 'business', company_name: 'ACME GmbH', legal_form: 'gmbh' },
    amount_capturable: 1_000,
    ...over,
  }) as unknown as StoredPayment;

describe('confirmRefusal', () => {
  it('takes a payment that fits', () => expect(confirmRefusal(b2b, payment())).toBeNull());
  it('names what does not fit', () => {
    expect(confirmRefusal(b2b, payment({ capture_method: 'manual_multiple' }))).toMatchObject({ code: 'IR_05', param: 'capture_method' });
    expect(confirmRefusal(b2b, payment({ currency: 'USD' }))).toMatchObject({ code: 'IR_05', param: 'currency' });
    expect(confirmRefusal(b2b, payment({ billing: null }))).toMatchObject({ code: 'IR_04', param: 'billing.address.country' });
    expect(confirmRefusal(b2b, payment({ billing: { address: { country: 'FR' } } }))).toMatchObject({ code: 'IR_05', param: 'billing.address.country' });
    expect(confirmRefusal(b2b, payment({ metadata: { company_name: 'x', legal_form: 'y' } }))).toMatchObject({ code: 'IR_05', param: 'metadata.buyer_type' });
    expect(confirmRefusal(b2b, payment({ metadata: { buyer_type: 'business', company_name: 'x' } }))).toMatchObject({
      code: 'IR_04',
      param: 'metadata.legal_form',
    });
  });
  it('a recurring charge (issue 22) needs neither the required fields nor a billing country; a country given is checked', () => {
    const mandate = { kind: 'recurring' as const, mandate_id: 'man_1', customer_acceptance: null, mandate_type: null, connector_mandate_id: 'ref' };
    const avarda = MANIFESTS.avarda as Manifest;
    const bare = payment({ currency: 'SEK', billing: null, metadata: null, return_url: null, mandate });
    expect(confirmRefusal(avarda, bare)).toBeNull();
    expect(confirmRefusal(avarda, { ...bare, mandate: undefined })).toMatchObject({ code: 'IR_04', param: 'billing.address.country' });
    expect(confirmRefusal(avarda, payment({ currency: 'SEK', billing: { address: { country: 'DE' } }, mandate }))).toMatchObject({
      code: 'IR_05',
      param: 'billing.address.country',
    });
    expect(confirmRefusal(avarda, { ...bare, currency: 'USD' })).toMatchObject({ code: 'IR_05', param: 'currency' });
  });
  it('service_test takes anything; an unknown connector is not refused here', () => {
    expect(confirmRefusal(serviceTest as Manifest, payment({ currency: 'JPY', billing: null, metadata: null }))).toBeNull();
    expect(confirmRefusal(undefined, payment())).toBeNull();
  });
  it('B2B only where buyer_type says business', () => {
    expect(customerType({ metadata: { buyer_type: 'Business' } })).toBe('B2B');
    expect(customerType({ metadata: { buyer_type: 'consumer' } })).toBe('B2C');
    expect(customerType({ metadata: null })).toBe('B2C');
  });
});

describe('captureRefusal and refundRefusal', () => {
  it('partial capture and partial refund only where supported; refunds only where the flow exists', () => {
    expect(captureRefusal(b2b, payment(), 400)).toMatchObject({ param: 'amount_to_capture' });
    expect(captureRefusal(b2b, payment(), 1_000)).toBeNull();
    expect(refundRefusal(b2b, 1_000, 1_000)).toMatchObject({ code: 'IR_05', message: expect.stringContaining('does not support refunds') });
    const refunds = { ...b2b, flows: [...b2b.flows, 'refund'] } as Manifest;
    expect(refundRefusal(refunds, 400, 1_000)).toMatchObject({ param: 'amount' });
    expect(refundRefusal(refunds, 1_000, 1_000)).toBeNull();
    expect(refundRefusal(serviceTest as Manifest, 1, 1_000)).toBeNull();
  });
});

describe('what a capture needs (issue 19 item 3): due at confirm for an automatic capture, at each capture otherwise', () => {
  const invoiced = payment({ metadata: { buyer_type: 'business', company_name: 'ACME GmbH', legal_form: 'GmbH', invoice_url: 'https://shop.example/i.pdf' } });
  const noUrl = payment({ metadata: { buyer_type: 'business', company_name: 'ACME GmbH', legal_form: 'GmbH' } });
  const withFields = (p: StoredPayment) =>
    ({
      ...p,
      customer: { email: 'a@b.example' },
      return_url: 'https://shop.example/r',
      order_details: [{}],
      billing: { address: { first_name: 'A', last_name: 'B', line1: 'Hauptstr. 1', city: 'Berlin', zip: '10115', country: 'DE' } },
    }) as unknown as StoredPayment;

  it('billie and mondu: an automatic capture needs metadata.invoice_url when confirmed, a manual one at its capture', () => {
    for (const m of [billie, mondu] as Manifest[]) {
      expect(fieldsNeeded(m, 'automatic')).toEqual({ confirm: [...m.required_fields, 'metadata.invoice_url'], capture: [] });
      expect(fieldsNeeded(m, 'manual')).toEqual({ confirm: [...m.required_fields], capture: ['metadata.invoice_url'] });
      expect(fieldsNeeded(m, 'manual_multiple').capture).toEqual(['metadata.invoice_url']);
      expect(confirmRefusal(m, withFields(noUrl))).toMatchObject({
        code: 'IR_04',
        param: 'metadata.invoice_url',
        message: expect.stringContaining('capture_method automatic'),
      });
      expect(confirmRefusal(m, withFields(invoiced))).toBeNull();
      expect(confirmRefusal(m, withFields({ ...noUrl, capture_method: 'manual' }))).toBeNull();
    }
  });

  it('a capture takes metadata.invoice_url from its own request first, else the payment; without either it is refused naming it', () => {
    const p = { ...noUrl, capture_method: 'manual' } as StoredPayment;
    expect(captureRefusal(billie as Manifest, p, 1_000)).toMatchObject({ code: 'IR_04', param: 'metadata.invoice_url' });
    expect(captureRefusal(mondu as Manifest, p, 1_000, { metadata: { invoice_url: '' } })).toMatchObject({ param: 'metadata.invoice_url' });
    expect(captureRefusal(billie as Manifest, p, 1_000, { metadata: { invoice_url: 'https://shop.example/1.pdf' } })).toBeNull();
    expect(captureRefusal(mondu as Manifest, { ...invoiced, capture_method: 'manual' } as StoredPayment, 400, {})).toBeNull();
  });

  it('a connector without capture_fields needs nothing more at capture', () => {
    for (const m of Object.values(MANIFESTS) as Manifest[]) {
      if (m.capture_fields?.length) continue;
      expect(fieldsNeeded(m, 'automatic')).toEqual({ confirm: [...m.required_fields], capture: [] });
      expect(fieldsNeeded(m, 'manual').capture).toEqual([]);
    }
  });
});
