// The imitation against the same examples as the connector (workers/connectors/mondu/fixtures): the reference
// sheet's create-order example is accepted, and every answer parses with the connector's schemas of Mondu's shapes.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { monduRouter } from './imitation.ts';
import { signMondu } from './webhooks.ts';
import { CreditNoteAnswer, InvoiceAnswer, MonduError, OrderAnswer } from '../../../../workers/connectors/mondu/schemas.ts';

const requests = JSON.parse(readFileSync(new URL('../../../../workers/connectors/mondu/fixtures/requests.json', import.meta.url), 'utf8'));
const answers = JSON.parse(readFileSync(new URL('../../../../workers/connectors/mondu/fixtures/answers.json', import.meta.url), 'utf8'));
const published = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../workers/connectors/mondu/fixtures/published/${name}.json`, import.meta.url), 'utf8'));
const TOKEN = 'mondu_sandbox_api_token';

let base = '';
let server: ReturnType<express.Express['listen']>;
const received: { headers: Record<string, string>; body: string }[] = [];
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  app.use('/mondu', monduRouter(new IdempotencyStore(), () => base).router);
  app.post('/hook', express.text({ type: '*/*' }), (req, res) => {
    received.push({ headers: req.headers as Record<string, string>, body: typeof req.body === 'string' ? req.body : JSON.stringify(req.body) });
    res.sendStatus(200);
  });
  await new Promise<void>((r) => {
    server = app.listen(0, '127.0.0.1', () => r());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

const call = async (method: string, path: string, body?: unknown, token = TOKEN) => {
  const res = await fetch(`${base}/mondu/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'api-token': token },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

describe('mondu imitation', () => {
  it("the sheet's example order: 201 {order} in the connector's shape; its checkout, confirm, invoice, credit note", async () => {
    await call('POST', '/webhooks', { topic: 'order', address: `${base}/hook` });
    const created = await call('POST', '/orders', requests.create_order);
    expect(created.status).toBe(201);
    const order = OrderAnswer.parse(created.body).order;
    expect(order).toMatchObject({ state: 'created', external_reference_id: '1001' });
    // Confirm before the buyer's checkout: refused on state, as the connector's fixture says.
    const early = await call('POST', `/orders/${order.uuid}/confirm`, {});
    expect(early).toEqual({ status: 422, body: answers.confirm_not_authorized.body });
    const page = await fetch(order.hosted_checkout_url!);
    expect(await page.text()).toContain(`/mondu/checkout/${order.uuid}/authorize`);
    const done = await fetch(`${base}/mondu/checkout/${order.uuid}/authorize`, { method: 'POST', redirect: 'manual' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`https://shop/ok?order_uuid=${order.uuid}&external_reference_id=1001`);
    const confirmed = await call('POST', `/orders/${order.uuid}/confirm`, { external_reference_id: '1001' });
    // The answer in the keys of Mondu's published confirm answer.
    expect(Object.keys(confirmed.body.order)).toEqual(Object.keys(published('confirm-answer').order));
    expect(OrderAnswer.parse(confirmed.body).order.state).toBe('confirmed');
    // issue 21: confirming a confirmed order again is refused on its state (it never simply agrees).
    expect(await call('POST', `/orders/${order.uuid}/confirm`, { external_reference_id: '1001' })).toEqual({
      status: 422,
      body: { status: 422, errors: [{ name: 'state', details: 'cannot transition from confirmed to confirmed' }] },
    });
    const inv = await call('POST', `/orders/${order.uuid}/invoices`, {
      external_reference_id: 'INV-1',
      invoice_url: 'https://shop/inv.pdf',
      gross_amount_cents: 5000,
      tax_cents: 798,
    });
    expect(inv.status).toBe(201);
    const invoice = InvoiceAnswer.parse(inv.body).invoice;
    const tooMuch = await call('POST', `/orders/${order.uuid}/invoices`, {
      external_reference_id: 'INV-2',
      invoice_url: 'https://shop/inv.pdf',
      gross_amount_cents: 7000,
    });
    expect(tooMuch).toEqual({ status: 422, body: answers.invoice_too_much.body });
    expect(await call('POST', `/orders/${order.uuid}/cancel`, {})).toEqual({ status: 422, body: answers.cancel_after_invoice.body });
    const cn = await call('POST', `/invoices/${invoice.uuid}/credit_notes`, { external_reference_id: 'ref_1', gross_amount_cents: 2000, tax_cents: 319 });
    expect(cn.status).toBe(201);
    expect(CreditNoteAnswer.parse(cn.body).credit_note.gross_amount_cents).toBe(2000);
    // The order webhooks, signed as Mondu signs them.
    await expect.poll(() => received.map((r) => JSON.parse(r.body).topic)).toEqual(['order/authorized', 'order/confirmed']);
    for (const r of received) expect(r.headers['x-mondu-signature']).toBe(signMondu(r.body, 'mondu_sandbox_webhook_secret'));
    // In the keys of Mondu's published order/confirmed example.
    expect(Object.keys(JSON.parse(received[1]!.body))).toEqual(Object.keys(published('webhook-order-confirmed')));
  });
  it("a declined order's webhook: the keys of Mondu's published order/declined, the reason in `reason`", async () => {
    received.length = 0;
    const created = await call('POST', '/orders', { ...requests.create_order, buyer: { ...requests.create_order.buyer, email: 'a+decline@b.de' } });
    const { uuid } = OrderAnswer.parse(created.body).order;
    await fetch(`${base}/mondu/checkout/${uuid}/authorize`, { method: 'POST', redirect: 'manual' });
    await expect.poll(() => received.length).toBe(1);
    const body = JSON.parse(received[0]!.body);
    expect(Object.keys(body)).toEqual(Object.keys(published('webhook-order-declined')));
    expect(body).toMatchObject({ topic: 'order/declined', order_uuid: uuid, order_state: 'declined', reason: 'risk_policy' });
  });
  it("refuses by Mondu's published rules (the connector's fixtures/rules.json)", async () => {
    const lang = await call('POST', '/orders', { ...requests.create_order, language: 'pl' });
    expect(lang.status).toBe(422);
    expect(MonduError.parse(lang.body).errors[0]).toMatchObject({ name: 'language' });
    const noRef = await call('POST', '/orders', {
      ...requests.create_order,
      lines: [{ line_items: [{ title: 'X', quantity: 1, net_price_per_item_cents: 10000, net_price_cents: 10000, tax_cents: 1900 }] }],
    });
    expect(noRef.body.errors).toEqual([{ name: 'lines.0.line_items.0.external_reference_id', details: 'is missing' }]);
  });
  it("errors in Mondu's shape: a wrong token, a missing field, an unknown order", async () => {
    expect(await call('POST', '/orders', requests.create_order, 'wrong')).toEqual({ status: 401, body: answers.unauthorized.body });
    const { buyer, ...noBuyer } = requests.create_order;
    const invalid = await call('POST', '/orders', { ...noBuyer, buyer: { ...buyer, email: undefined } });
    expect(invalid.status).toBe(422);
    expect(MonduError.parse(invalid.body).errors).toEqual([{ name: 'buyer.email', details: 'is missing' }]);
    expect(await call('GET', '/orders/nope')).toEqual({ status: 404, body: answers.not_found.body });
  });
});
