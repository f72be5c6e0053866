// Mandates (issue 22) for avarda and svea, connector against imitation, in process (no stack, no gateway): each flow's
// requests (request, then next) sent to the provider sandbox's imitation as the worker sends them (providerCall), its
// answers read by the flow's response. The first payment sets up the mandate (the customer completes the provider's
// checkout), its status sync yields connector_mandate_id, then recurring charges on it without the customer, each
// authorized, captured and refunded; a mandate ended at the provider is declined. The gateway and payment-state side
// (issue 22's core lane) is the stack test's (test/recurring-payments.test.ts).
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorJob } from '../../domain/job.ts';
import { connector as avarda } from '../../workers/connectors/avarda/index.ts';
import { testSession } from '../../workers/connectors/kit/testing.ts';
import { connector as svea } from '../../workers/connectors/svea/index.ts';
import type { ProviderResponse } from '../../workers/connectors/kit/http.ts';
import type { Flow, Session } from '../../workers/connectors/types.ts';
import { providerCall } from '../../workers/provider-http.ts';
import { avardaRouter } from '../../services/provider-sandbox/providers/avarda/imitation.ts';
import { sveaRouter } from '../../services/provider-sandbox/providers/svea/imitation.ts';
import { IdempotencyStore } from '../../services/provider-sandbox/recorder.ts';

let base = '';
let close = () => {};
let a: ReturnType<typeof avardaRouter>;
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  a = avardaRouter(new IdempotencyStore(), () => base);
  app.use('/avarda', a.router);
  app.use('/sandbox', a.operator);
  app.use('/svea', sveaRouter(new IdempotencyStore(), () => base).router);
  app.post('/webhooks/:m/:a', (_req, res) => void res.json({ received: true }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

/** A flow run as the worker runs it: the request, then each next request, until none or an error answer. */
async function run<C>(flow: Flow<C> | undefined, job: ConnectorJob, credentials: C, session: Session) {
  if (!flow) throw new Error('flow absent');
  const answers: ProviderResponse[] = [];
  let req: ReturnType<Flow<C>['request']> | null = flow.request(job, credentials, session);
  while (req) {
    const res = await providerCall(req.baseUrl ?? session.base_url!, req, 'test');
    answers.push(res);
    if (res.status >= 400 || !flow.next) break;
    req = flow.next(job, credentials, answers, session);
  }
  return flow.response(answers.at(-1)!, job, answers, session);
}
const until = async <T>(f: () => Promise<T>, ok: (t: T) => boolean) => {
  for (let i = 0; i < 50; i++) {
    const t = await f();
    if (ok(t)) return t;
    await new Promise((r) => setTimeout(r, 50));
  }
  return f();
};

let seq = 0;
const job = (over: Partial<ConnectorJob>): ConnectorJob => ({
  merchant_id: 'mer_1',
  payment_id: `pay_${String(++seq).padStart(26, '0')}`,
  operation_id: `op_${String(seq).padStart(26, '0')}`,
  kind: 'authorize',
  connector: 'avarda',
  merchant_connector_id: 'mca_1',
  amount: 29_900,
  currency: 'SEK',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'a@example.se',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: null,
  mode: 'execute',
  sync_round: 0,
  order: {
    customer: { id: null, name: 'A B', email: 'a@example.se', phone: null, phone_country_code: null },
    billing: { address: { first_name: 'A', last_name: 'B', line1: 'Storgatan 1', zip: '11122', city: 'Stockholm', country: 'SE' } },
    shipping: null,
    order_details: [{ product_name: 'Subscription', product_id: 'SUB1', quantity: 1, amount: 29_900, total_tax_amount: 5_980, tax_percentage: 25 }],
    order_tax_amount: 5_980,
    metadata: {},
    browser_info: null,
    description: 'Monthly box',
    payment_method_type: 'subscription_invoice',
    birth_date: null,
    gender: null,
    locale: null,
  },
  ...over,
});
const mandate = (kind: 'new' | 'recurring', connector_mandate_id: string | null = null) => ({ kind, mandate_id: 'man_1', connector_mandate_id });

describe('avarda: recurring payments against the imitation', () => {
  const creds = { auth_type: 'BodyKey' as const, api_key: 'avarda_sandbox_client', key1: 'avarda_sandbox_client_secret' };
  const session = async (j: ConnectorJob): Promise<Session> => {
    const s = testSession(j, { base_url: `${base}/avarda`, notification_url: `${base}/webhooks/${j.merchant_id}/mca_1` });
    const tokenReq = avarda.token!.request(creds, s);
    const t = avarda.token!.response(await providerCall(s.base_url!, tokenReq, 'avarda'));
    if (!('access_token' in t)) throw new Error('no token');
    return { ...s, access_token: t.access_token };
  };

  it('the first payment offers recurring payments; completed, its sync names the mandate; three charges on it, each captured and refunded', async () => {
    const first = job({ mandate: mandate('new') });
    const s = await session(first);
    const started = await run(avarda.authorize, first, creds, s);
    expect(started).toMatchObject({ kind: 'CUSTOMER_ACTION' });
    // The customer completes Avarda's form (the sandbox's stand-in page).
    const jwt = new URL(started.redirect_url!).searchParams.get('purchaseJwt')!;
    const done = await fetch(`${base}/avarda/checkout/complete`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ purchaseJwt: jwt, redirectUrl: '' }),
    });
    expect(done.status).toBe(200);
    const synced = await run(avarda.sync, { ...first, mode: 'sync', connector_transaction_id: started.connector_transaction_id! }, creds, s);
    expect(synced).toMatchObject({ kind: 'AUTHORIZED', connector_transaction_id: started.connector_transaction_id });
    const ref = synced.connector_mandate_id!;
    expect(ref).toMatch(new RegExp(`^${started.connector_transaction_id}:[0-9a-f]{32}$`));

    for (let month = 1; month <= 3; month++) {
      const charge = job({ mandate: mandate('recurring', ref), amount: 29_900 });
      const authorized = await run(avarda.authorize, charge, creds, s);
      expect(authorized).toMatchObject({ kind: 'AUTHORIZED' });
      expect(authorized.connector_transaction_id).not.toBe(started.connector_transaction_id);
      const on = { ...charge, connector_transaction_id: authorized.connector_transaction_id! };
      expect(await run(avarda.sync, { ...on, mode: 'sync' }, creds, s)).toMatchObject({ kind: 'AUTHORIZED' });
      expect(await run(avarda.capture, { ...on, kind: 'capture', operation_id: `op_cap_${month}_${seq}` }, creds, s)).toMatchObject({ kind: 'CAPTURED' });
      expect(await run(avarda.refund, { ...on, kind: 'refund', operation_id: `op_ref_${month}_${seq}`, amount: 10_000 }, creds, s)).toMatchObject({
        kind: 'REFUNDED',
      });
    }
  });

  it('a mandate ended at Avarda (the operator revokes the token) is declined, naming the token', async () => {
    const first = job({ mandate: mandate('new') });
    const s = await session(first);
    const started = await run(avarda.authorize, first, creds, s);
    const jwt = new URL(started.redirect_url!).searchParams.get('purchaseJwt')!;
    await fetch(`${base}/avarda/checkout/complete`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ purchaseJwt: jwt, redirectUrl: '' }) });
    const synced = await run(avarda.sync, { ...first, mode: 'sync', connector_transaction_id: started.connector_transaction_id! }, creds, s);
    const token = synced.connector_mandate_id!.split(':')[1];
    expect((await fetch(`${base}/sandbox/avarda/revoke/${token}`, { method: 'POST' })).status).toBe(200);
    expect(await run(avarda.authorize, job({ mandate: mandate('recurring', synced.connector_mandate_id!) }), creds, s)).toMatchObject({
      kind: 'DECLINED',
      error_code: '110',
      unified_code: 'UE_7000',
    });
  });
});

describe('svea: recurring orders against the imitation', () => {
  const creds = { auth_type: 'BodyKey' as const, api_key: 'svea_sandbox_secret', key1: '124842' };
  const sveaJob = (over: Partial<ConnectorJob>) => job({ connector: 'svea', ...over });
  const session = (j: ConnectorJob): Session => testSession(j, { base_url: `${base}/svea`, notification_url: `${base}/webhooks/${j.merchant_id}/mca_1` });

  async function firstOrder() {
    const first = sveaJob({ mandate: mandate('new') });
    const s = session(first);
    const started = await run(svea.authorize, first, creds, s);
    expect(started).toMatchObject({ kind: 'CUSTOMER_ACTION' });
    expect((await fetch(`${base}/svea/checkout/${started.connector_transaction_id}/approve`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    const synced = await run(svea.sync, { ...first, mode: 'sync', connector_transaction_id: started.connector_transaction_id! }, creds, s);
    expect(synced).toMatchObject({ kind: 'AUTHORIZED', connector_transaction_id: started.connector_transaction_id });
    expect(synced.connector_mandate_id).toMatch(/^[0-9a-f-]{36}$/);
    return { s, token: synced.connector_mandate_id! };
  }

  it('the first order is recurring; authorized, its RecurringToken is the mandate; three orders on it, each delivered and credited', async () => {
    const { s, token } = await firstOrder();
    for (let month = 1; month <= 3; month++) {
      const charge = sveaJob({ mandate: mandate('recurring', token) });
      const made = await run(svea.authorize, charge, creds, s);
      expect(made).toMatchObject({ kind: 'PENDING' });
      const on = { ...charge, connector_transaction_id: made.connector_transaction_id! };
      const authorized = await run(svea.sync, { ...on, mode: 'sync' }, creds, s);
      expect(authorized).toMatchObject({ kind: 'AUTHORIZED', connector_transaction_id: made.connector_transaction_id });
      expect(authorized).not.toHaveProperty('connector_mandate_id');
      const capture = { ...on, kind: 'capture' as const, operation_id: `op_cap_${month}_${seq}` };
      let captured = await run(svea.capture, capture, creds, s);
      if (captured.kind === 'PENDING')
        captured = await until(
          () => run(svea.capture, { ...capture, mode: 'sync', connector_transaction_id: captured.connector_transaction_id! }, creds, s),
          (o) => o.kind !== 'PENDING',
        );
      expect(captured).toMatchObject({ kind: 'CAPTURED' });
      const refund = {
        ...on,
        kind: 'refund' as const,
        operation_id: `op_ref_${month}_${seq}`,
        refund_id: `ref_${month}_${seq}`,
        amount: 10_000,
        connector_capture_id: captured.connector_transaction_id!,
      };
      let refunded = await run(svea.refund, refund, creds, s);
      if (refunded.kind === 'PENDING')
        refunded = await until(
          () => run(svea.refundSync, { ...refund, mode: 'sync', connector_refund_id: refunded.connector_transaction_id! }, creds, s),
          (o) => o.kind !== 'PENDING',
        );
      expect(refunded).toMatchObject({ kind: 'REFUNDED' });
    }
  });

  it('a token cancelled at Svea (PATCH /api/tokens/{token}) declines the next order: 118, the mandate gone (UE_7000)', async () => {
    const { s, token } = await firstOrder();
    const cancel = { method: 'PATCH' as const, path: `/api/tokens/${token}`, body: { status: 'Cancelled' } };
    const { sveaHeaders } = await import('../../workers/connectors/svea/sign.ts');
    expect((await providerCall(s.base_url!, { ...cancel, headers: sveaHeaders(creds.key1, creds.api_key, cancel.body) }, 'svea')).status).toBe(200);
    expect(await run(svea.authorize, sveaJob({ mandate: mandate('recurring', token) }), creds, s)).toMatchObject({
      kind: 'DECLINED',
      error_code: '118',
      unified_code: 'UE_7000',
    });
    expect(await run(svea.authorize, sveaJob({ mandate: mandate('recurring', '00000000-0000-0000-0000-000000000000') }), creds, s)).toMatchObject({
      kind: 'DECLINED',
      unified_code: 'UE_7000',
    });
  });
});
