// axytos (Kauf auf Rechnung) through the real processes: a merchant's axytos connector account (the manifest's sandbox
// account details), BNPL payments routed to it, the sandbox's axytos imitation answering in axytos's dialect. The
// matrix: automatic capture, manual + full, partial and multiple captures (shipping + invoice each), void, refund and
// partial refund (credits of the invoice), decline (decision R), a provider 5xx then success, wrong credentials, B2B
// and B2C, a refused refund. axytos decides at once, has no customer step and sends no notifications: there is no
// review or redirect case (see the connector's README).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantWithAccount } from '../support/connectors.ts';
import { Stack } from '../support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => {
  stack = await Stack.start();
  ({ api_key: key, merchant_id: merchantId } = await merchantWithAccount(stack, 'axytos'));
});
afterAll(async () => stack?.stop());

let n = 0;
function payment(email: string, extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) {
  n += 1;
  return {
    amount: 11_900,
    currency: 'EUR',
    confirm: true,
    payment_method: 'pay_later',
    payment_method_type: 'invoice',
    connector: ['axytos'],
    // Base 36: a run of 13+ digits can pass the Luhn check and be refused as a card number (IR_05).
    merchant_order_reference_id: `ax-order-${n}-${Date.now().toString(36)}`,
    customer: { id: `cus_ax_${n}`, email, name: 'Erika Mustermann' },
    billing: { address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' }, email },
    order_details: [
      { product_name: 'Lamp', quantity: 2, amount: 10_000, tax_percentage: 19, product_id: 'sku-1' },
      { product_name: 'Shipping', quantity: 1, amount: 1_900, category: 'shipping_costs', tax_percentage: 19 },
    ],
    metadata: { birth_date: '1980-02-03', buyer_type: 'private', customer_locale: 'de-DE', net_term: 30, ...metadata },
    browser_info: { ip_address: '203.0.113.7' },
    ...extra,
  };
}
const pay = (email: string, extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}, apiKey = key) =>
  stack.api('POST', '/payments', payment(email, extra, metadata), apiKey);
const at = async (externalOrderId: string) =>
  ((await (await stack.sandbox(`/__sandbox/axytos/orders?externalOrderId=${encodeURIComponent(externalOrderId)}`)).json()) as any[])[0];
const capture = (id: string, body: Record<string, unknown> = {}) => stack.api('POST', `/payments/${id}/capture`, body, key);
const refund = (paymentId: string, amount?: number) => stack.api('POST', '/refunds', { payment_id: paymentId, ...(amount ? { amount } : {}) }, key);

describe('axytos: captures', () => {
  it('automatic capture: prechecked, confirmed, shipped and invoiced in one go', async () => {
    const r = await pay('erika@example.com');
    expect(r.body, JSON.stringify(r.body)).toMatchObject({
      status: 'succeeded',
      connector: 'axytos',
      amount_received: 11_900,
      reference_id: expect.any(String),
    });
    expect(r.body.connector_transaction_id).toBe(r.body.merchant_order_reference_id);
    const o = await at(r.body.connector_transaction_id);
    // The payment's reference is the shop's invoice number we gave axytos (a refund names it), not axytos's own number.
    expect(o).toMatchObject({
      status: 'confirmed',
      grossTotal: 11_900,
      invoices: [{ gross: 11_900, externalInvoiceNumber: r.body.reference_id, invoiceNumber: expect.stringMatching(/^AXI-/) }],
    });
    const paths = (await stack.sandboxCalls({ provider: 'axytos' })).map((c) => c.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/axytos/api/v1/Payments/invoice/order/precheck',
        '/axytos/api/v1/Payments/invoice/order/confirm',
        '/axytos/api/v1/Payments/invoice/order/reportshipping',
        '/axytos/api/v1/Payments/invoice/order/createInvoice',
      ]),
    );
  });

  it('manual capture, then the whole amount: one shipment, one invoice', async () => {
    const r = await pay('erika@example.com', { capture_method: 'manual' });
    expect(r.body.status).toBe('requires_capture');
    expect((await at(r.body.connector_transaction_id)).invoices).toEqual([]);
    const c = await capture(r.body.payment_id, { capture_metadata: { invoice_data: { merchant_invoice_ref: `INV-${n}` } } });
    expect(c.body, JSON.stringify(c.body)).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
    expect((await at(r.body.connector_transaction_id)).invoices).toMatchObject([{ externalInvoiceNumber: `INV-${n}`, gross: 11_900 }]);
  });

  it('a partial capture, and multiple captures (manual_multiple): a shipment and an invoice each', async () => {
    const p = await pay('erika@example.com', { capture_method: 'manual' });
    expect((await capture(p.body.payment_id, { amount_to_capture: 5_000 })).body).toMatchObject({ status: 'partially_captured', amount_received: 5_000 });
    const m = await pay('erika@example.com', { capture_method: 'manual_multiple' });
    expect((await capture(m.body.payment_id, { amount_to_capture: 4_000 })).body).toMatchObject({
      status: 'partially_captured_and_capturable',
      amount_capturable: 7_900,
    });
    expect((await capture(m.body.payment_id, { amount_to_capture: 7_900 })).body).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
    const o = await at(m.body.connector_transaction_id);
    expect(o.invoices.map((i: any) => i.gross)).toEqual([4_000, 7_900]);
    expect(Object.keys(o.shipments)).toHaveLength(2);
  });

  it('void: the order cancelled at axytos', async () => {
    const r = await pay('erika@example.com', { capture_method: 'manual' });
    const v = await stack.api('POST', `/payments/${r.body.payment_id}/cancel`, { cancellation_reason: 'out of stock' }, key);
    expect(v.body, JSON.stringify(v.body)).toMatchObject({ status: 'cancelled' });
    expect((await at(r.body.connector_transaction_id)).status).toBe('cancelled');
  });
});

describe('axytos: refunds', () => {
  it('a partial refund and the rest of an automatic capture: credits of its invoice', async () => {
    const p = (await pay('erika@example.com')).body;
    expect((await refund(p.payment_id, 2_380)).body).toMatchObject({ status: 'succeeded', amount: 2_380, connector: 'axytos' });
    expect((await refund(p.payment_id)).body).toMatchObject({ status: 'succeeded', amount: 9_520 });
    const o = await at(p.connector_transaction_id);
    expect(o.refunds.map((r: any) => [r.originalInvoiceNumber, r.gross])).toEqual([
      [p.reference_id, 2_380],
      [p.reference_id, 9_520],
    ]);
  });

  it("a refund of a manual capture credits that capture's invoice", async () => {
    const p = (await pay('erika@example.com', { capture_method: 'manual_multiple' })).body;
    await capture(p.payment_id, { amount_to_capture: 4_000 });
    const second = (await capture(p.payment_id, { amount_to_capture: 7_900 })).body;
    const r = await refund(p.payment_id, 1_000);
    expect(r.body).toMatchObject({ status: 'succeeded' });
    const o = await at(p.connector_transaction_id);
    expect(o.refunds).toMatchObject([{ originalInvoiceNumber: second.captures.at(-1).connector_capture_id, gross: 1_000 }]);
    expect(o.invoices.at(-1).externalInvoiceNumber).toBe(second.captures.at(-1).connector_capture_id);
  });

  it('+refund_fail: axytos refuses the credit, in its own words', async () => {
    const p = (await pay('erika+refund_fail@example.com')).body;
    const r = await refund(p.payment_id, 1_000);
    expect(r.body).toMatchObject({
      status: 'failed',
      error_code: 'HTTP_400',
      error_message: expect.stringContaining('collection agency'),
      unified_code: 'UE_6000',
    });
  });
});

describe('axytos: decisions', () => {
  it("decline: decision R, failed with axytos's decision", async () => {
    const r = await pay('erika+decline@example.com');
    expect(r.body).toMatchObject({
      status: 'failed',
      error_code: 'DECISION_R',
      error_message: 'axytos rejected the order (decision R)',
      unified_code: 'UE_1000',
    });
    expect(await at(r.body.merchant_order_reference_id)).toBeUndefined();
  });

  it('axytos answers 500 twice: the worker runs the chain again, one order at axytos', async () => {
    const r = await pay('erika+flaky@example.com');
    const done = r.body.status === 'processing' ? await stack.poll(r.body.payment_id, key, (p) => p.status !== 'processing') : r.body;
    expect(done).toMatchObject({ status: 'succeeded' });
    const prechecks = (await stack.sandboxCalls({ provider: 'axytos', path: '/axytos/api/v1/Payments/invoice/order/precheck' })).map((c) => c.status);
    expect(prechecks.filter((s) => s === 500)).toHaveLength(2);
    expect((await at(done.connector_transaction_id)).invoices).toHaveLength(1);
  });

  it('a business buyer: the company and its VAT id go to axytos', async () => {
    const r = await pay(
      'buyer@muster.example',
      {},
      { buyer_type: 'business', company_name: 'Muster GmbH', legal_form: 'GmbH', company_vat_id: 'DE123456789', birth_date: undefined },
    );
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ status: 'succeeded' });
    expect(await at(r.body.connector_transaction_id)).toMatchObject({
      personalData: { company: { name: 'Muster GmbH', legalForm: 'GmbH', uid: 'DE123456789' } },
      invoiceAddress: { company: 'Muster GmbH', vatId: 'DE123456789' },
    });
  });

  it('a country axytos does not serve: refused by us before anything is queued, naming the field', async () => {
    const r = await pay('erika@example.com', {
      billing: { address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'ES' } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'IR_05', param: 'billing.address.country' });
  });

  it("wrong credentials: failed with axytos's 401", async () => {
    const other = await stack.merchant();
    const a = await stack.api(
      'POST',
      `/account/${other.merchant_id}/connectors`,
      {
        connector_name: 'axytos',
        connector_account_details: { auth_type: 'HeaderKey', api_key: 'wrong' },
        connector_webhook_details: { merchant_secret: 'x' },
      },
      stack.adminKey,
    );
    expect(a.status).toBe(200);
    const r = await pay('erika@example.com', {}, {}, other.api_key);
    expect(r.body).toMatchObject({ status: 'failed', error_code: 'HTTP_401', unified_code: 'UE_4000' });
  });
});
