// The Unzer imitation, checked against the same recorded answers the connector is tested with
// (workers/connectors/unzer/fixtures/answers.json, the sheet's examples where it has them): each answer of the
// imitation has the fixture's shape, and the connector's flows run against it end to end (no stack: the router on a
// port of its own, the worker's provider call).
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
    sameShape(over.answers[0]!, 'error_body');
    expect(over.outcome).toMatchObject({ kind: 'FAILED', error_code: 'API.340.100.014', unified_code: 'UE_2000' });
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
    expect(wrong.outcome).toMatchObject({ kind: 'FAILED', error_code: 'API.320.000.004', unified_code: 'UE_4000' });
    const j = job('erika@example.com');
    const noBirth = await run(connector.authorize!, { ...j, order: { ...j.order!, metadata: {} } });
    sameShape(noBirth.answers[1]!, 'birthdate_missing');
    expect(noBirth.outcome).toMatchObject({ kind: 'FAILED', error_code: 'API.330.100.200' });
    const noFp = await run(connector.authorize!, { ...j, payment_id: 'pay_nofp', order: { ...j.order!, browser_info: null } });
    expect(noFp.outcome).toMatchObject({ kind: 'FAILED', error_code: 'API.330.100.008', error_message: expect.stringContaining('threatMetrixId') });
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
