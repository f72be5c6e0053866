// The sandbox's Zinia against the connector's fixtures (the designed shapes of Zinia's requests and answers) and the
// connector's zod schemas: a sandbox bug and a matching connector bug cannot hide each other.
import express from 'express';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { openbankRouter } from './imitation.ts';
import {
  GatewayError,
  ZiniaError,
  ZiniaNotification,
  ZiniaOrder,
  ZiniaRefund,
  ZiniaShipment,
  ZiniaToken,
} from '../../../../workers/connectors/openbank/schemas.ts';

const load = (f: string) => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/openbank/fixtures/${f}`, import.meta.url), 'utf8'));
const example = load('requests.json').create_order;
const answers = load('answers.json');
const KEY = 'openbank_sandbox_merchant_api_key';
let base = '';
let close = () => {};
let token = '';
let hooks: { body: any }[] = [];
let imitation: ReturnType<typeof openbankRouter>;
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  imitation = openbankRouter(new IdempotencyStore(), () => base);
  app.use('/openbank', imitation.router);
  app.post('/hook', (req, res) => {
    hooks.push({ body: req.body });
    res.json({ received: true });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
  token = (await call('POST', '/auth/login', { client_id: 'openbank_sandbox_client_id', client_secret: 'openbank_sandbox_client_secret' }, { bearer: false }))
    .body.access_token;
});
afterAll(() => {
  imitation.reset();
  close();
});

async function call(method: string, path: string, body?: unknown, o: { key?: string; bearer?: boolean | string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'ocp-apim-subscription-key': o.key ?? KEY };
  if (o.bearer !== false) headers.authorization = `Bearer ${typeof o.bearer === 'string' ? o.bearer : token}`;
  const res = await fetch(`${base}/openbank${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}
let n = 0;
const orderBody = (over: Record<string, unknown> = {}, customer: Record<string, unknown> = {}) => ({
  ...example,
  merchant_order_id: `op_test_${++n}`,
  customer: { ...example.customer, ...customer },
  urls: { ...example.urls, notification_url: `${base}/hook` },
  ...over,
});
const keys = (o: object) => Object.keys(o).sort();
/** The customer at the Link-Up: the page's form for `decision`, posted as a browser would. */
async function linkUp(redirectUrl: string, decision: 'approve' | 'deny') {
  const page = await (await fetch(redirectUrl)).text();
  const action = new RegExp(`action="([^"]+/${decision})"`).exec(page)?.[1];
  expect(action, page).toBeTruthy();
  const res = await fetch(new URL(action!, redirectUrl), { method: 'POST', redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}
const until = async <T>(read: () => T | undefined): Promise<T> => {
  for (let i = 0; i < 500; i++) {
    const v = read();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('never came');
};

describe("the sandbox's Zinia", () => {
  it("login: a token in the fixture's shape; wrong client: INVALID_CLIENT_CREDENTIALS; wrong subscription key: the API gateway's 401", async () => {
    const t = await call(
      'POST',
      '/auth/login',
      { client_id: 'openbank_sandbox_client_id', client_secret: 'openbank_sandbox_client_secret' },
      { bearer: false },
    );
    expect(ZiniaToken.parse(t.body).expires_in).toBe(3600);
    expect(keys(t.body)).toEqual(keys(answers.token.body));
    expect(await call('POST', '/auth/login', { client_id: 'openbank_sandbox_client_id', client_secret: 'nope' }, { bearer: false })).toEqual(
      answers.token_refused,
    );
    expect(
      await call(
        'POST',
        '/auth/login',
        { client_id: 'openbank_sandbox_client_id', client_secret: 'openbank_sandbox_client_secret' },
        { key: 'nope', bearer: false },
      ),
    ).toEqual(answers.subscription_key_refused);
    expect(GatewayError.parse(answers.subscription_key_refused.body).statusCode).toBe(401);
    expect(await call('GET', '/checkout/orders/ZIN-x', undefined, { bearer: 'not_a_token' })).toEqual(answers.token_invalid);
  });

  it("takes the fixture's create-order request: CREATED with the Link-Up; the same merchant_order_id again answers that order", async () => {
    const body = orderBody();
    const r = await call('POST', '/checkout/orders', body);
    expect(r.status).toBe(201);
    expect(ZiniaOrder.parse(r.body)).toMatchObject({ status: 'CREATED', amount: 119, merchant_order_id: body.merchant_order_id });
    expect(keys(r.body)).toEqual(keys(answers.created.body));
    expect(r.body.redirect_url).toBe(`${base}/openbank/link-up/${r.body.order_id}`);
    const again = await call('POST', '/checkout/orders', body);
    expect(again).toEqual({ status: 200, body: r.body });
    expect((await call('GET', `/checkout/orders/${r.body.order_id}`)).body).toEqual(r.body);
  });

  it('the Link-Up: approve -> APPROVED, back to return_url, an unsigned notification; deny -> CANCELLED, back to cancel_url', async () => {
    hooks = [];
    const ok = (await call('POST', '/checkout/orders', orderBody())).body;
    const back = await linkUp(ok.redirect_url, 'approve');
    expect(back).toBe(`https://shop.example/return?zinia_order_id=${ok.order_id}&merchant_order_id=${ok.merchant_order_id}`);
    const approved = await call('GET', `/checkout/orders/${ok.order_id}`);
    expect(keys(approved.body)).toEqual(keys(answers.approved.body));
    expect(approved.body.status).toBe('APPROVED');
    const hook = await until(() => hooks.find((h) => h.body.order_id === ok.order_id));
    expect(ZiniaNotification.parse(hook.body)).toMatchObject({ event: 'ORDER_STATUS_CHANGED', status: 'APPROVED', merchant_order_id: ok.merchant_order_id });
    const no = (await call('POST', '/checkout/orders', orderBody({ urls: { ...example.urls, cancel_url: 'https://shop.example/cancelled' } }))).body;
    expect(await linkUp(no.redirect_url, 'deny')).toMatch(/^https:\/\/shop\.example\/cancelled\?zinia_order_id=/);
    expect((await call('GET', `/checkout/orders/${no.order_id}`)).body).toMatchObject({
      status: 'CANCELLED',
      rejection_reason: answers.customer_cancelled.body.rejection_reason,
    });
    expect((await fetch(ok.redirect_url)).status).toBe(404);
  });

  it('magic tags: +decline REJECTED at the Link-Up, +review PENDING then APPROVED', async () => {
    const d = (await call('POST', '/checkout/orders', orderBody({}, { email: 'erika+decline@example.com' }))).body;
    await linkUp(d.redirect_url, 'approve');
    const rejected = (await call('GET', `/checkout/orders/${d.order_id}`)).body;
    expect(rejected.rejection_reason).toEqual(answers.rejected.body.rejection_reason);
    expect(keys(rejected)).toEqual(keys(answers.rejected.body));
    const r = (await call('POST', '/checkout/orders', orderBody({}, { email: 'erika+review@example.com' }))).body;
    await linkUp(r.redirect_url, 'approve');
    expect((await call('GET', `/checkout/orders/${r.order_id}`)).body.status).toBe('PENDING');
  });

  it("shipments (partial, several), cancel of the rest, refunds within what was shipped, in the fixtures' shapes", async () => {
    const o = (await call('POST', '/checkout/orders', orderBody())).body;
    expect(await call('POST', `/orders/${o.order_id}/confirm-shipment`, { shipment_id: 's0', amount: 50 })).toEqual(answers.shipment_not_approved);
    await linkUp(o.redirect_url, 'approve');
    const s1 = await call('POST', `/orders/${o.order_id}/confirm-shipment`, { shipment_id: 's1', amount: 50, invoice_number: 'INV-1001' });
    expect(s1.status).toBe(201);
    expect(ZiniaShipment.parse(s1.body)).toMatchObject({ amount: 50, order_status: 'PARTIALLY_SHIPPED', remaining_amount: 69 });
    expect(keys(s1.body)).toEqual(keys(answers.shipment.body));
    expect((await call('POST', `/orders/${o.order_id}/confirm-shipment`, { shipment_id: 's1', amount: 50 })).body).toEqual(s1.body);
    expect(await call('POST', `/orders/${o.order_id}/confirm-shipment`, { shipment_id: 's2', amount: 70 })).toEqual(answers.shipment_too_much);
    const rf = await call('POST', `/orders/${o.order_id}/refunds`, { merchant_refund_id: 'r1', amount: 20, reason: 'damaged' });
    expect(ZiniaRefund.parse(rf.body).status).toBe('COMPLETED');
    expect(keys(rf.body)).toEqual(keys(answers.refund.body));
    expect((await call('GET', `/orders/${o.order_id}/refunds/${rf.body.refund_id}`)).body).toEqual(rf.body);
    expect(await call('POST', `/orders/${o.order_id}/refunds`, { merchant_refund_id: 'r2', amount: 30.01 })).toEqual({
      status: 422,
      body: { code: 'AMOUNT_EXCEEDS_REFUNDABLE', message: 'The refund amount exceeds what can be refunded (30.00 EUR)' },
    });
    const c = await call('POST', `/orders/${o.order_id}/cancel`, {});
    expect(ZiniaOrder.parse(c.body)).toMatchObject({ status: 'SHIPPED', shipped_amount: 50, cancelled_amount: 69 });
    expect(keys(c.body)).toEqual(keys(answers.cancelled_rest.body));
    const whole = (await call('POST', '/checkout/orders', orderBody())).body;
    await linkUp(whole.redirect_url, 'approve');
    await call('POST', `/orders/${whole.order_id}/confirm-shipment`, { shipment_id: 'w1' });
    expect(await call('POST', `/orders/${whole.order_id}/cancel`, {})).toEqual(answers.cancel_shipped);
  });

  it('refund tags: +refund_fail REJECTED, +refund_pending PENDING then COMPLETED with a notification', async () => {
    hooks = [];
    for (const [tag, status] of [
      ['refund_fail', 'REJECTED'],
      ['refund_pending', 'PENDING'],
    ] as const) {
      const o = (await call('POST', '/checkout/orders', orderBody({}, { email: `erika+${tag}@example.com` }))).body;
      await linkUp(o.redirect_url, 'approve');
      await call('POST', `/orders/${o.order_id}/confirm-shipment`, { shipment_id: 'x' });
      const r = await call('POST', `/orders/${o.order_id}/refunds`, { merchant_refund_id: 'r', amount: 10 });
      expect(ZiniaRefund.parse(r.body).status).toBe(status);
      if (status === 'REJECTED') expect(r.body.rejection_reason).toEqual(answers.refund_rejected.body.rejection_reason);
      else {
        const hook = await until(() => hooks.find((h) => h.body.refund_id === r.body.refund_id));
        expect(hook.body).toMatchObject({ event: 'REFUND_STATUS_CHANGED', status: 'COMPLETED', order_id: o.order_id });
      }
    }
  }, 15_000);

  it("refuses in Zinia's {code, message, field}: a malformed birth date, too many decimals, an amount out of range, a Spanish customer without national id", async () => {
    const noBirth = await call('POST', '/checkout/orders', orderBody({}, { birth_date: '03.02.1980' }));
    expect(noBirth).toEqual(answers.validation_birth_date);
    expect(ZiniaError.parse(noBirth.body).field).toBe('customer.birth_date');
    expect((await call('POST', '/checkout/orders', orderBody({ amount: 119.001 }))).body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'amount' });
    const small = orderBody({ amount: 20, items: [{ ...example.items[1], quantity: 1, unit_price: 20, total_amount: 20 }] });
    expect(await call('POST', '/checkout/orders', small)).toEqual(answers.amount_out_of_range);
    const es = orderBody({ billing_address: { ...example.billing_address, country_code: 'ES', postal_code: '28001', city: 'Madrid' } });
    expect((await call('POST', '/checkout/orders', es)).body).toMatchObject({ code: 'VALIDATION_ERROR', field: 'customer.national_id' });
    expect((await call('POST', '/checkout/orders', orderBody({}, { mobile_phone: '015112345678' }))).body).toMatchObject({ field: 'customer.mobile_phone' });
    expect(await call('GET', '/checkout/orders/ZIN-nope')).toEqual(answers.order_not_found);
  });

  describe('issue 21: against what Zinia and the gateways published (workers/connectors/openbank/fixtures/published/)', () => {
    const guide = load('published/zinia-integration-guide.json');
    const computop = load('published/computop-zinia.json');
    const payever = load('published/payever-zinia-de.json');

    it("Merchant_login gives the access token the checkout is carried out with; POST /checkout/orders answers the Link-Up's URL", async () => {
      expect(computop.request_mapping.description).toContain('merchant login is used to get acess token to carry out the checkout');
      expect(await call('POST', '/checkout/orders', orderBody(), { bearer: false })).toMatchObject({ status: 401, body: { code: 'INVALID_TOKEN' } });
      const login = await call(
        'POST',
        '/auth/login',
        { client_id: 'openbank_sandbox_client_id', client_secret: 'openbank_sandbox_client_secret' },
        { bearer: false },
      );
      expect(keys(login.body)).toEqual(keys(answers.token.body));
      expect(guide.checkout).toContain('(POST /checkout/orders)');
      const created = await call('POST', '/checkout/orders', orderBody(), { bearer: login.body.access_token });
      expect(created.status).toBe(201);
      expect(keys(created.body)).toEqual(keys(answers.created.body));
      // "a URL to show users the Zinia checkout payment screen (customer Link-Up process)": it opens the customer's page.
      const page = await fetch(created.body.redirect_url);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<form method="post"/);
    });

    it('takes an order without mobile number and date of birth: the customer gives them at Zinia (old code: 400 customer.birth_date)', async () => {
      expect(computop.customer_data).toBe('Enter customer mobile number and date of birth.');
      expect(payever['https://support.payever.org/hc/en-us/articles/16873706611484-Zinia-by-Santander-Installment-Germany'][2]).toContain(
        'the customer is forwarded to Zinia, where they simply enter their date of birth',
      );
      const bare = await call('POST', '/checkout/orders', orderBody({}, { mobile_phone: undefined, birth_date: undefined }));
      expect(bare.status).toBe(201);
      expect(ZiniaOrder.parse(bare.body).status).toBe('CREATED');
      const page = await (await fetch(bare.body.redirect_url)).text();
      expect(page).toMatch(/name="mobile_phone"/);
      expect(page).toMatch(/name="birth_date"/);
      // The customer's own birth date at the Link-Up decides legal age (Zinia: 18 or over).
      const action = /action="([^"]+\/approve)"/.exec(page)![1]!;
      const back = await fetch(new URL(action, bare.body.redirect_url), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ mobile_phone: '+4915112345678', birth_date: `${new Date().getUTCFullYear() - 17}-01-01` }).toString(),
      });
      expect(back.status).toBe(303);
      expect((await call('GET', `/checkout/orders/${bare.body.order_id}`)).body).toMatchObject({
        status: 'REJECTED',
        rejection_reason: { code: 'CUSTOMER_UNDERAGE' },
      });
    });

    it("instalments are 50-750 EUR by default as payever's Zinia page says (old code: up to 3000 EUR)", async () => {
      expect(payever['https://support.payever.org/hc/en-us/articles/16873706611484-Zinia-by-Santander-Installment-Germany'][0]).toContain(
        'between €50 and €750',
      );
      const item = { ...example.items[0], quantity: 1, unit_price: 1000, total_amount: 1000 };
      const big = await call('POST', '/checkout/orders', orderBody({ product: 'INSTALMENTS', amount: 1000, items: [item] }));
      expect(big).toMatchObject({ status: 422, body: { code: 'AMOUNT_OUT_OF_RANGE', field: 'amount' } });
      const ok = { ...item, unit_price: 750, total_amount: 750 };
      expect((await call('POST', '/checkout/orders', orderBody({ product: 'INSTALMENTS', amount: 750, items: [ok] }))).status).toBe(201);
    });
  });
});
