// The axytos imitation, checked against the same recorded answers the connector is tested with
// (workers/connectors/axytos/fixtures/answers.json): each answer has the fixture's shape, and the connector's flows run
// against it end to end (no stack: the router on a port of its own, the worker's provider call).
import express from 'express';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorJob } from '../../../../domain/job.ts';
import { connector } from '../../../../workers/connectors/axytos/index.ts';
import { AXYTOS_SANDBOX_KEY } from '../../../../workers/connectors/axytos/manifest.ts';
import type { Flow } from '../../../../workers/connectors/types.ts';
import { providerCall } from '../../../../workers/provider-http.ts';
import type { ProviderResponse } from '../../../../workers/connectors/kit/http.ts';
import { IdempotencyStore } from '../../recorder.ts';
import { axytosRouter } from './imitation.ts';

const fixtures: Record<string, ProviderResponse> = JSON.parse(
  readFileSync(new URL('../../../../workers/connectors/axytos/fixtures/answers.json', import.meta.url), 'utf8'),
);
let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use('/axytos', axytosRouter(new IdempotencyStore()).router);
  await new Promise<void>((r) => {
    server = app.listen(0, '127.0.0.1', () => r());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/axytos/api/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const creds = { api_key: AXYTOS_SANDBOX_KEY };
let n = 0;
const job = (email: string, over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1',
  payment_id: `pay_${++n}`,
  operation_id: `op_${n}`,
  kind: 'authorize',
  connector: 'axytos',
  amount: 11900,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: email,
  return_url: null,
  merchant_order_reference_id: null,
  mode: 'execute',
  sync_round: 0,
  order: {
    customer: { id: 'cus_1', name: 'Erika Mustermann', email, phone: null, phone_country_code: null },
    billing: { address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 1', zip: '10115', city: 'Berlin', country: 'DE' } },
    shipping: null,
    order_details: [
      { product_name: 'Lamp', quantity: 2, amount: 10000, tax_percentage: 19 },
      { product_name: 'Shipping', quantity: 1, amount: 1900, category: 'shipping_costs', tax_percentage: 19 },
    ],
    order_tax_amount: null,
    metadata: { birth_date: '1980-02-03' },
    browser_info: null,
    description: null,
    payment_method_type: 'invoice',
    birth_date: null,
    gender: null,
    locale: null,
  },
  ...over,
});

async function run(flow: Flow<{ api_key: string }>, j: ConnectorJob, c = creds) {
  let res = await providerCall(base, flow.request(j, c), 'axytos');
  const answers = [res];
  for (let req = res.status < 400 ? flow.next?.(j, c, answers) : null; req; req = res.status < 400 ? flow.next!(j, c, answers) : null) {
    res = await providerCall(base, req, 'axytos');
    answers.push(res);
  }
  return { answers, outcome: flow.response(res, j, answers) };
}
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  return v === null ? null : typeof v;
}
function sameShape(actual: ProviderResponse, fixture: string) {
  const f = fixtures[fixture]!;
  expect(actual.status, fixture).toBe(f.status);
  if (f.body === null) expect(actual.body, fixture).toBeNull();
  else expect(shape(actual.body), fixture).toMatchObject(shape(f.body) as object);
}

describe('axytos imitation against the recorded answers', () => {
  it('approved and confirmed; a partial capture (shipping, invoice); a refund of it; the rest cancelled', async () => {
    const j = job('erika@example.com');
    const { answers, outcome } = await run(connector.authorize!, j);
    sameShape(answers[0]!, 'precheck_u');
    sameShape(answers[1]!, 'empty_ok');
    expect(outcome).toMatchObject({ kind: 'AUTHORIZED', connector_transaction_id: `pay_${n}` });
    const paid = { ...j, connector_transaction_id: outcome.connector_transaction_id! };
    sameShape((await run(connector.sync!, { ...paid, mode: 'sync' })).answers[0]!, 'payment_state');
    const cap = await run(connector.capture!, { ...paid, kind: 'capture', operation_id: 'cap_1', amount: 5000 });
    sameShape(cap.answers[1]!, 'invoice');
    // The capture's id is the shop's invoice number sent (here the operation); axytos's own number its reference.
    expect(cap.outcome).toMatchObject({ kind: 'CAPTURED', connector_transaction_id: 'cap_1', connector_reference_id: expect.stringMatching(/^AXI-/) });
    // A refund naming axytos's number instead of the shop's is refused: the imitation does not agree with that mistake.
    const wrongNumber = await run(connector.refund!, {
      ...paid,
      kind: 'refund',
      refund_id: 'ref_0',
      amount: 1000,
      connector_capture_id: cap.outcome.connector_reference_id!,
    });
    expect(wrongNumber.outcome).toMatchObject({ kind: 'DECLINED', error_code: 'HTTP_400:OriginalInvoiceNumber' });
    // The same invoice number again: the first invoice.
    expect((await run(connector.capture!, { ...paid, kind: 'capture', operation_id: 'cap_1', amount: 5000 })).outcome.connector_transaction_id).toBe(
      cap.outcome.connector_transaction_id,
    );
    const over = await run(connector.refund!, {
      ...paid,
      kind: 'refund',
      refund_id: 'ref_1',
      amount: 6000,
      connector_capture_id: cap.outcome.connector_transaction_id!,
    });
    expect(over.outcome).toMatchObject({ kind: 'DECLINED', error_code: 'HTTP_400', unified_code: 'UE_6000' });
    const ok = await run(connector.refund!, {
      ...paid,
      kind: 'refund',
      refund_id: 'ref_2',
      amount: 2000,
      connector_capture_id: cap.outcome.connector_transaction_id!,
    });
    sameShape(ok.answers[0]!, 'empty_ok');
    expect(ok.outcome).toEqual({ kind: 'REFUNDED', connector_transaction_id: 'ref_2' });
    expect((await run(connector.void!, { ...paid, kind: 'void' })).outcome.kind).toBe('VOIDED');
    expect((await run(connector.capture!, { ...paid, kind: 'capture', operation_id: 'cap_2', amount: 1000 })).outcome).toMatchObject({
      kind: 'FAILED',
      error_code: 'HTTP_400',
    });
  });
  it("automatic capture: the chain ends with the invoice, the shop's invoice number the reference", async () => {
    const j = job('erika@example.com', { capture_method: 'automatic' });
    const { answers, outcome } = await run(connector.authorize!, j);
    expect(answers).toHaveLength(4);
    sameShape(answers[3]!, 'invoice');
    expect(outcome).toMatchObject({ kind: 'CAPTURED', connector_reference_id: j.operation_id });
  });
  it("requests are checked by axytos's published models, the field named", async () => {
    const j = job('erika@example.com');
    const body = connector.authorize!.request(j, creds).body as Record<string, any>;
    const call = (b: unknown) =>
      providerCall(base, { method: 'POST', path: '/Payments/invoice/order/precheck', headers: { 'x-api-key': creds.api_key }, body: b }, 'axytos');
    const noCustomer = await call({ ...body, personalData: { ...body.personalData, externalCustomerId: undefined } });
    expect(noCustomer).toMatchObject({ status: 400, body: { errors: { 'PersonalData.ExternalCustomerId': ['The ExternalCustomerId field is required.'] } } });
    const localDate = await call({ ...body, personalData: { ...body.personalData, dateOfBirth: '1980-02-03T00:00:00' } });
    expect(localDate).toMatchObject({ status: 400, body: { errors: { 'PersonalData.DateOfBirth': [expect.any(String)] } } });
    const country = await call({ ...body, invoiceAddress: { ...body.invoiceAddress, country: 'ES' } });
    expect(country).toMatchObject({ status: 400, body: { errors: { 'InvoiceAddress.Country': [expect.any(String)] } } });
    expect((await call(body)).status).toBe(200);
  });
  it('+decline: decision R; refusals: a wrong key, a missing zip code, an unknown order', async () => {
    const d = await run(connector.authorize!, job('erika+decline@example.com'));
    sameShape(d.answers[0]!, 'precheck_r');
    expect(d.answers).toHaveLength(1);
    expect(d.outcome).toMatchObject({ kind: 'DECLINED', error_code: 'DECISION_R' });
    const wrong = await run(connector.authorize!, job('erika@example.com'), { api_key: 'nope' });
    sameShape(wrong.answers[0]!, 'unauthorized');
    expect(wrong.outcome).toMatchObject({ kind: 'FAILED', error_code: 'HTTP_401', unified_code: 'UE_4000' });
    const j = job('erika@example.com');
    const noZip = await run(connector.authorize!, {
      ...j,
      order: { ...j.order!, billing: { address: { first_name: 'E', last_name: 'M', line1: 'X 1', city: 'Berlin', country: 'DE' } } },
    });
    sameShape(noZip.answers[0]!, 'validation');
    expect(noZip.outcome).toMatchObject({ kind: 'FAILED', error_code: 'HTTP_400:InvoiceAddress.ZipCode' });
    const unknown = await run(connector.sync!, job('x', { mode: 'sync', connector_transaction_id: 'nope' }));
    sameShape(unknown.answers[0]!, 'not_found');
  });
  it('+refund_fail as recorded', async () => {
    const p = await run(connector.authorize!, job('erika+refund_fail@example.com', { capture_method: 'automatic' }));
    const r = await run(
      connector.refund!,
      job('x', {
        kind: 'refund',
        refund_id: 'ref_f',
        amount: 1000,
        connector_transaction_id: p.outcome.connector_transaction_id!,
        connector_capture_id: p.outcome.connector_reference_id!,
      }),
    );
    sameShape(r.answers[0]!, 'refund_refused');
    expect(r.outcome).toMatchObject({ kind: 'DECLINED', unified_code: 'UE_6000' });
  });
});
