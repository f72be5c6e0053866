// The Unzer imitation, checked against Unzer's own published examples (workers/connectors/unzer/fixtures/published/,
// read as files: its answers carry their keys) and rules (fixtures/rules.json: it refuses by them), and against the
// recorded scenarios the connector is tested with (fixtures/answers.json); the connector's flows run against it end to
// end (no stack: the router on a port of its own, the worker's provider call).
import express from 'express';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorJob } from '../../../../domain/job.ts';
import { connector } from '../../../../workers/connectors/unzer/index.ts';
import { UNZER_SANDBOX_KEY } from '../../../../workers/connectors/unzer/manifest.ts';
import { providerCall } from '../../../../workers/provider-http.ts';
import type { ProviderResponse } from '../../../../workers/connectors/kit/http.ts';
import type { Flow } from '../../../../workers/connectors/types.ts';
import { IdempotencyStore } from '../../recorder.ts';
import { unzerRouter } from './imitation.ts';

const fixtures: Record<string, ProviderResponse> = JSON.parse(
  readFileSync(new URL('../../../../workers/connectors/unzer/fixtures/answers.json', import.meta.url), 'utf8'),
);
const read = (name: string) => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/unzer/fixtures/${name}`, import.meta.url), 'utf8'));
const published = (name: string) => read(`published/${name}.json`);
const keys = (v: unknown) => Object.keys(v as object);
let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  const u = unzerRouter(new IdempotencyStore(), () => base);
  app.use('/unzer', u.router);
  await new Promise<void>((r) => {
    server = app.listen(0, '127.0.0.1', () => r());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const creds = { api_key: UNZER_SANDBOX_KEY };
let n = 0;
const job = (email: string, over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1',
  payment_id: `pay_${++n}`,
  operation_id: `op_${n}`,
  kind: 'authorize',
  connector: 'unzer',
  amount: 11900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: email,
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: null,
  mode: 'execute',
  sync_round: 0,
  order: {
    customer: { id: null, name: 'Erika Mustermann', email, phone: null, phone_country_code: null },
    billing: { address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' } },
    shipping: null,
    order_details: [
      { product_name: 'Lamp', quantity: 2, amount: 10000 },
      { product_name: 'Shipping', quantity: 1, amount: 1900, category: 'shipping_costs' },
    ],
    order_tax_amount: null,
    metadata: { birth_date: '1980-02-03' },
    browser_info: { device_fingerprint: { unzer: 'tmx-1' } },
    description: null,
    payment_method_type: 'invoice',
    birth_date: null,
    gender: null,
    locale: null,
  },
  ...over,
});

/** Runs a flow as the worker does: the first call, each next one while answered below 400. */
async function run(flow: Flow<{ api_key: string }>, j: ConnectorJob, c = creds) {
  let res = await providerCall(`${base}/unzer`, flow.request(j, c), 'unzer');
  const answers = [res];
  for (let req = res.status < 400 ? flow.next?.(j, c, answers) : null; req; req = res.status < 400 ? flow.next!(j, c, answers) : null) {
    res = await providerCall(`${base}/unzer`, req, 'unzer');
    answers.push(res);
  }
  return { answers, outcome: flow.response(res, j, answers) };
}

/** The shape of a JSON value: its keys, recursively (arrays by their first item). */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  return typeof v;
}
/** The imitation's answer has every field of the fixture, of the same type. */
function sameShape(actual: ProviderResponse, fixture: string) {
  const f = fixtures[fixture]!;
  expect(actual.status, fixture).toBe(f.status);
  expect(shape(actual.body), fixture).toMatchObject(shape(f.body) as object);
}

describe('unzer imitation against the recorded answers', () => {
  it('approved: type, customer, basket, authorization as recorded; the payment read, then charged, as recorded', async () => {
    const j = job('erika@example.com');
    const { answers, outcome } = await run(connector.authorize!, j);
    for (const [i, name] of ['type', 'customer', 'basket', 'authorized'].entries()) sameShape(answers[i]!, name);
    expect(outcome).toMatchObject({ kind: 'AUTHORIZED', connector_transaction_id: expect.stringMatching(/^s-pay-/) });
    const paid = { ...j, connector_transaction_id: outcome.connector_transaction_id! };
    const read = await run(connector.sync!, { ...paid, mode: 'sync' });
    sameShape(read.answers[0]!, 'payment_authorized');
    expect(read.outcome.kind).toBe('AUTHORIZED');
    const part = await run(connector.capture!, { ...paid, kind: 'capture', operation_id: 'cap_1', amount: 4000 });
    sameShape(part.answers[0]!, 'charged');
    expect(part.outcome.kind).toBe('CAPTURED');
    // The same invoice number again: the first charge, not a second.
    expect((await run(connector.capture!, { ...paid, kind: 'capture', operation_id: 'cap_1', amount: 4000 })).outcome.connector_transaction_id).toBe(
      part.outcome.connector_transaction_id,
    );
    const over = await run(connector.capture!, { ...paid, kind: 'capture', operation_id: 'cap_2', amount: 8000 });
    sameShape(over.answers[0]!, 'order_id_in_use');
    expect(over.outcome).toMatchObject({ kind: 'FAILED', error_code: 'API.330.100.007', unified_code: 'UE_2000' });
    const refund = await run(connector.refund!, { ...paid, kind: 'refund', refund_id: 'ref_1', amount: 1000 });
    sameShape(refund.answers[0]!, 'canceled');
    expect(refund.outcome.kind).toBe('REFUNDED');
    const rest = await run(connector.void!, { ...paid, kind: 'void' });
    expect(rest.outcome.kind).toBe('VOIDED');
    const after = await run(connector.sync!, { ...paid, mode: 'sync' });
    expect(after.answers[0]!.body).toMatchObject({ state: { name: 'completed' }, amount: { total: '119.0000', charged: '40.0000', remaining: '0.0000' } });
  });
  it('automatic capture: the chain ends with the charge', async () => {
    const { answers, outcome } = await run(connector.authorize!, job('erika@example.com', { capture_method: 'automatic' }));
    expect(answers).toHaveLength(5);
    sameShape(answers[4]!, 'charged');
    expect(outcome.kind).toBe('CAPTURED');
  });
  it('+decline, +review, +redirect as recorded', async () => {
    const d = await run(connector.authorize!, job('erika+decline@example.com'));
    sameShape(d.answers[3]!, 'declined');
    expect(d.outcome).toMatchObject({ kind: 'DECLINED', error_code: 'COR.400.100.101', unified_code: 'UE_1000' });
    const r = await run(connector.authorize!, job('erika+review@example.com'));
    sameShape(r.answers[3]!, 'review');
    expect(r.outcome.kind).toBe('PENDING');
    const pending = await run(
      connector.sync!,
      job('erika+review@example.com', { mode: 'sync', connector_transaction_id: r.outcome.connector_transaction_id! }),
    );
    sameShape(pending.answers[0]!, 'payment_review');
    const x = await run(connector.authorize!, job('erika+redirect@example.com'));
    sameShape(x.answers[3]!, 'redirect');
    expect(x.outcome).toMatchObject({ kind: 'CUSTOMER_ACTION', redirect_url: `${base}/unzer/redirect/${x.outcome.connector_transaction_id}` });
  });
  it('refused: a wrong key (401), a B2C customer without birth date, a missing fingerprint', async () => {
    const wrong = await run(connector.authorize!, job('erika@example.com'), { api_key: 's-priv-wrong' });
    sameShape(wrong.answers[0]!, 'unauthorized');
    expect(wrong.outcome).toMatchObject({ kind: 'FAILED', error_code: 'API.710.000.002', unified_code: 'UE_4000' });
    const j = job('erika@example.com');
    const noBirth = await run(connector.authorize!, { ...j, order: { ...j.order!, metadata: {} } });
    sameShape(noBirth.answers[1]!, 'birthdate_missing');
    expect(noBirth.outcome).toMatchObject({ kind: 'FAILED', error_code: 'API.710.200.100' });
    const noFp = await run(connector.authorize!, { ...j, payment_id: 'pay_nofp', order: { ...j.order!, browser_info: null } });
    expect(noFp.outcome).toMatchObject({ kind: 'FAILED', error_code: 'API.710.200.100', error_message: expect.stringContaining('threatMetrixId') });
  });
  it('refunds: +refund_fail and +refund_pending as recorded', async () => {
    const auto = (email: string) => run(connector.authorize!, job(email, { capture_method: 'automatic' }));
    const f = await auto('erika+refund_fail@example.com');
    const failed = await run(
      connector.refund!,
      job('x', { kind: 'refund', refund_id: 'ref_f', amount: 1000, connector_transaction_id: f.outcome.connector_transaction_id! }),
    );
    sameShape(failed.answers[0]!, 'refund_refused');
    expect(failed.outcome).toMatchObject({ kind: 'DECLINED', unified_code: 'UE_6000' });
    const p = await auto('erika+refund_pending@example.com');
    const pending = await run(
      connector.refund!,
      job('x', { kind: 'refund', refund_id: 'ref_p', amount: 1000, connector_transaction_id: p.outcome.connector_transaction_id! }),
    );
    sameShape(pending.answers[0]!, 'refund_pending');
    expect(pending.outcome.kind).toBe('PENDING');
    const again = await run(
      connector.refundSync!,
      job('x', {
        kind: 'refund',
        mode: 'sync',
        connector_refund_id: pending.outcome.connector_transaction_id!,
        connector_transaction_id: p.outcome.connector_transaction_id!,
      }),
    );
    expect(again.outcome).toMatchObject({ kind: 'PENDING', connector_transaction_id: pending.outcome.connector_transaction_id });
  });
});

describe("unzer imitation against Unzer's published examples and rules", () => {
  const post = async (path: string, body: unknown, key = UNZER_SANDBOX_KEY) => {
    const res = await fetch(`${base}/unzer${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const get = async (path: string) => {
    const res = await fetch(`${base}/unzer${path}`, { headers: { authorization: `Basic ${Buffer.from(`${UNZER_SANDBOX_KEY}:`).toString('base64')}` } });
    return { status: res.status, body: await res.json() };
  };
  it("answers in the keys of Unzer's examples: the type, a transaction, a payment read, an error body", async () => {
    const { answers, outcome } = await run(connector.authorize!, job('erika@example.com'));
    expect(keys(answers[0]!.body)).toEqual(keys(published('type-created')));
    // Every key of Unzer's published transaction but the card's own (card3ds, additionalTransactionData.card).
    const tx = keys(published('authorize-success')).filter((k) => k !== 'card3ds' && k !== 'additionalTransactionData');
    expect(keys(answers[3]!.body)).toEqual(expect.arrayContaining(tx));
    expect(keys((answers[3]!.body as { resources: object }).resources)).toEqual(expect.arrayContaining(keys(published('charge-success').resources)));
    const p = await get(`/v1/payments/${outcome.connector_transaction_id}`);
    expect(keys(p.body)).toEqual(keys(published('payment-pending')));
    expect(keys(p.body.resources)).toEqual(keys(published('payment-pending').resources));
    expect(keys(p.body.transactions[0])).toEqual(expect.arrayContaining(['date', 'type', 'status', 'url', 'amount']));
    const wrong = await post('/v1/types/paylater-invoice', {}, 's-priv-wrong');
    expect(wrong.status).toBe(401);
    expect(keys(wrong.body)).toEqual(keys(published('error-decline')));
    expect(keys(wrong.body.errors[0])).toEqual(keys(published('error-decline').errors[0]));
  });
  it("refuses by Unzer's published rules (rules.json), naming the field", async () => {
    const customer = {
      firstname: 'E',
      lastname: 'M',
      email: 'e@example.com',
      company: 'Muster GmbH',
      billingAddress: { street: 'S 1', zip: '1', city: 'B', country: 'DE' },
    };
    const legal = await post('/v1/customers', { ...customer, companyInfo: { companyType: 'GmbH' } });
    expect(legal).toMatchObject({
      status: 400,
      body: { errors: [{ code: 'API.500.300.999', merchantMessage: expect.stringContaining('companyInfo.companyType') }] },
    });
    expect((await post('/v1/customers', { ...customer, companyInfo: { companyType: 'company' } })).status).toBe(200);
    const item = { basketItemReferenceId: 'i1', title: 'Hat', quantity: 1, vat: 19, amountPerUnitGross: '119.00' };
    const basket = await post('/v2/baskets', { totalValueGross: '119.00', currencyCode: 'EUR', basketItems: [{ ...item, type: 'service' }] });
    expect(basket).toMatchObject({ status: 400, body: { errors: [{ merchantMessage: expect.stringContaining('basketItems[0].type') }] } });
    const { outcome } = await run(connector.authorize!, job('erika@example.com', { capture_method: 'automatic' }));
    const noReason = await post(`/v1/payments/${outcome.connector_transaction_id}/charges/cancels`, { amount: '1.00' });
    expect(noReason).toMatchObject({ status: 400, body: { errors: [{ code: 'API.340.100.024' }] } });
    const hook = await post('/v1/webhooks', { url: 'https://shop.example/hook', eventList: ['payment.completed', 'authorize.approved'] });
    expect(hook).toMatchObject({ status: 400, body: { errors: [{ merchantMessage: expect.stringContaining('event') }] } });
    const hooks = await post('/v1/webhooks', { url: 'https://shop.example/hook', eventList: ['payment.completed', 'authorize.succeeded'] });
    expect(hooks.body.events).toHaveLength(2);
  });
  it('issue 21: a repeated orderId is refused with API.320.200.138; the connector then reads the payment by its orderId', async () => {
    const j = job('erika@example.com');
    const first = await run(connector.authorize!, j);
    expect(first.outcome.kind).toBe('AUTHORIZED');
    const again = await run(connector.authorize!, j);
    expect(again.answers[3]!.body).toMatchObject({ errors: [{ code: 'API.320.200.138' }] });
    expect(again.outcome).toEqual({ kind: 'PENDING', connector_transaction_id: j.payment_id });
    const read = await run(connector.sync!, { ...j, mode: 'sync', connector_transaction_id: j.payment_id });
    expect(read.outcome).toEqual({ kind: 'AUTHORIZED', connector_transaction_id: first.outcome.connector_transaction_id });
  });
  it('issue 21: a review is a pending authorization in a pending payment (state 0), never state 4 (payment review)', async () => {
    const r = await run(connector.authorize!, job('erika+review@example.com'));
    const p = await get(`/v1/payments/${r.outcome.connector_transaction_id}`);
    expect(p.body.state).toEqual({ id: 0, name: 'pending' });
    expect(p.body.transactions[0]).toMatchObject({ type: 'authorize', status: 'pending' });
  });
});
