// The imitation against the same examples as the connector (workers/connectors/billie/fixtures): a create-order
// request after Billie's SDK is accepted, the answers parse with the connector's schemas and keep the keys of Billie's
// published shapes (fixtures/published/), the webhook is Billie's published one, and a request breaking Billie's
// rules (fixtures/rules.json) is refused naming the field (issue 21).
import express from 'express';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { billieRouter } from './imitation.ts';
import { BillieCreditNote, BillieInvoice, BillieOrder, BillieToken } from '../../../../workers/connectors/billie/schemas.ts';

const requests = JSON.parse(readFileSync(new URL('../../../../workers/connectors/billie/fixtures/requests.json', import.meta.url), 'utf8'));
const answers = JSON.parse(readFileSync(new URL('../../../../workers/connectors/billie/fixtures/answers.json', import.meta.url), 'utf8'));
const published = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../workers/connectors/billie/fixtures/published/${name}`, import.meta.url), 'utf8'));
const received: { headers: Record<string, unknown>; body: unknown }[] = [];

let base = '';
let root = '';
let server: ReturnType<express.Express['listen']>;
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  const b = billieRouter(new IdempotencyStore());
  app.use('/billie', b.router);
  app.use('/sandbox', b.operator);
  app.post('/hook', (req, res) => {
    received.push({ headers: req.headers, body: req.body });
    res.status(204).end();
  });
  await new Promise<void>((r) => {
    server = app.listen(0, '127.0.0.1', () => r());
  });
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = `${root}/billie/api/v2`;
});
afterAll(() => server?.close());

const call = async (method: string, path: string, body: unknown, token?: string) => {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
};

describe('billie imitation', () => {
  it("token, the sheet's example order, an invoice, a credit note, in the connector's shapes", async () => {
    const t = await call('POST', '/oauth/token', {
      grant_type: 'client_credentials',
      client_id: 'billie_sandbox_client_id',
      client_secret: 'billie_sandbox_client_secret',
    });
    const token = BillieToken.parse(t.body).access_token;
    expect(await call('POST', '/orders', requests.create_order)).toEqual({ status: 401, body: answers.unauthorized.body });
    const created = await call('POST', '/orders', requests.create_order, token);
    expect(created.status).toBe(200);
    const o = BillieOrder.parse(created.body);
    expect(created.body).toMatchObject({ ...answers.order_created.body, uuid: o.uuid, created_at: expect.any(String) });
    const inv = await call(
      'POST',
      '/invoices',
      { orders: [o.uuid], external_code: 'INV-1', invoice_url: 'https://shop/i.pdf', shipping_info: {}, amount: { net: 50, gross: 59.5, tax: 9.5 } },
      token,
    );
    expect(inv.status).toBe(201);
    expect(BillieInvoice.parse(inv.body).amount).toEqual({ net: 50, gross: 59.5, tax: 9.5 });
    expect(
      await call(
        'POST',
        '/invoices',
        { orders: [o.uuid], external_code: 'INV-2', invoice_url: 'https://shop/i.pdf', shipping_info: {}, amount: { net: 60, gross: 71.4, tax: 11.4 } },
        token,
      ),
    ).toEqual({ status: 400, body: answers.invoice_too_much.body });
    expect(await call('POST', `/orders/${o.uuid}/cancel`, {}, token)).toEqual({ status: 403, body: answers.cancel_refused.body });
    const cn = await call(
      'POST',
      `/invoices/${inv.body.uuid}/credit-notes`,
      { external_code: 'ref_1', amount: { net: 16.81, gross: 20, tax: 3.19 }, comment: 'damaged' },
      token,
    );
    expect(cn.status).toBe(201);
    expect(BillieCreditNote.parse(cn.body).uuid).toBeTruthy();
  });
  it("refusals in Billie's shapes: bad client credentials, a blank debtor name, a decline as HTTP 200", async () => {
    expect(await call('POST', '/oauth/token', { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' })).toEqual({
      status: 401,
      body: answers.token_refused.body,
    });
    const token = (
      await call('POST', '/oauth/token', {
        grant_type: 'client_credentials',
        client_id: 'billie_sandbox_client_id',
        client_secret: 'billie_sandbox_client_secret',
      })
    ).body.access_token;
    const noName = { ...requests.create_order, debtor: { ...requests.create_order.debtor, name: '' } };
    expect(await call('POST', '/orders', noName, token)).toEqual({ status: 400, body: answers.validation_error.body });
    const declined = await call(
      'POST',
      '/orders',
      { ...requests.create_order, debtor_person: { ...requests.create_order.debtor_person, email: 'a+decline@acme.de' } },
      token,
    );
    expect(declined.status).toBe(200);
    expect(BillieOrder.parse(declined.body)).toMatchObject({ state: 'declined', decline_reason: 'risk_policy' });
  });
  it("issue 21: refuses by Billie's rules, naming the field: no merchant_customer_id, an invoice without shipping_info", async () => {
    const token = (
      await call('POST', '/oauth/token', {
        grant_type: 'client_credentials',
        client_id: 'billie_sandbox_client_id',
        client_secret: 'billie_sandbox_client_secret',
      })
    ).body.access_token;
    const { merchant_customer_id: _, ...debtor } = requests.create_order.debtor;
    expect(await call('POST', '/orders', { ...requests.create_order, debtor }, token)).toEqual({
      status: 400,
      body: published('error.json'),
    });
    const created = await call('POST', '/orders', requests.create_order, token);
    // The answer keeps the keys of Billie's Order, in order.
    expect(Object.keys(created.body)).toEqual(Object.keys(published('order.json')));
    const inv = await call(
      'POST',
      '/invoices',
      { orders: [created.body.uuid], external_code: 'INV-9', invoice_url: 'https://shop/i.pdf', amount: { net: 10, gross: 11.9, tax: 1.9 } },
      token,
    );
    expect(inv).toEqual({
      status: 400,
      body: { errors: [{ title: 'This value should not be blank.', code: 'request_validation_error', source: 'shipping_info' }] },
    });
  });
  it("sends Billie's published webhook shape with the agreed secret in X-Api-Key", async () => {
    expect(
      (
        await fetch(`${root}/sandbox/billie/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: 'billie_sandbox_client_id', url: `${root}/hook`, secret: 's3cret' }),
        })
      ).status,
    ).toBe(201);
    const token = (
      await call('POST', '/oauth/token', {
        grant_type: 'client_credentials',
        client_id: 'billie_sandbox_client_id',
        client_secret: 'billie_sandbox_client_secret',
      })
    ).body.access_token;
    const o = (await call('POST', '/orders', { ...requests.create_order, external_code: 'wh-1' }, token)).body;
    expect((await call('POST', `/orders/${o.uuid}/cancel`, {}, token)).status).toBe(204);
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]!.headers['x-api-key']).toBe('s3cret');
    const body = received[0]!.body as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(Object.keys(published('webhook-order-approved.json')));
    expect(body).toMatchObject({ event: 'order_canceled', order_id: 'wh-1', order_uuid: o.uuid });
  });
});
