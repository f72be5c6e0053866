// The imitation against the same examples as the connector (workers/connectors/twisto/fixtures): the reference
// sheet's checkout, charge and refund examples are accepted, every answer parses with the connector's schemas of
// Twisto's shapes, and the refusals are the bodies the connector's fixtures hold.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../recorder.ts';
import { twistoRouter } from './imitation.ts';
import { TwistoCharge, TwistoCheckout, TwistoRefund, TwistoRefundList, TwistoWebhook } from '../../../../workers/connectors/twisto/schemas.ts';

const requests = JSON.parse(readFileSync(new URL('../../../../workers/connectors/twisto/fixtures/requests.json', import.meta.url), 'utf8'));
const answers = JSON.parse(readFileSync(new URL('../../../../workers/connectors/twisto/fixtures/answers.json', import.meta.url), 'utf8'));
const notifications = JSON.parse(readFileSync(new URL('../../../../workers/connectors/twisto/fixtures/notifications.json', import.meta.url), 'utf8'));
const KEY = 'twisto_sandbox_secret_key';
/** Twisto's published example `name` (workers/connectors/twisto/fixtures/published/, SOURCES.md). */
const published = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../workers/connectors/twisto/fixtures/published/${name}.json`, import.meta.url), 'utf8'));

let base = '';
let server: ReturnType<express.Express['listen']>;
const received: { headers: Record<string, string>; body: string }[] = [];
beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(express.urlencoded({ extended: false }));
  const t = twistoRouter(new IdempotencyStore(), () => base);
  app.use('/twisto', t.router);
  app.use('/sandbox', t.operator);
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

const call = async (method: string, path: string, body?: unknown, key: string | null = KEY, idempotencyKey?: string) => {
  const res = await fetch(`${base}/twisto/psp/v4${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
/** The shopper at the checkout page: its form for `action`, posted. */
async function shopper(uri: string, action: 'approve' | 'deny') {
  const page = await (await fetch(uri)).text();
  const form = new RegExp(`action="([^"]+/${action})"`).exec(page)?.[1];
  expect(form, page).toBeTruthy();
  const res = await fetch(new URL(form!, uri), { method: 'POST', redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}
const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(what()).toBe(true);
};

describe('twisto imitation', () => {
  it("the sheet's checkout, the shopper's approval, the sheet's charge and capture, the sheet's refund: in the connector's shapes", async () => {
    expect(
      (
        await fetch(`${base}/sandbox/twisto/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ secret_key: KEY, url: `${base}/hook` }),
        })
      ).status,
    ).toBe(201);
    const created = await call('POST', '/checkouts', requests.create_checkout);
    expect(created.status).toBe(201);
    const c = TwistoCheckout.parse(created.body);
    const { id: _i, uri: _u, created: _c, ...documented } = answers.checkout_created.body;
    expect(created.body).toMatchObject({ ...documented, state: 'created' });
    const location = await shopper(c.uri!, 'approve');
    expect(location).toBe(`https://shop/return?checkout_id=${c.id}&state=approved`);
    expect(TwistoCheckout.parse((await call('GET', `/checkouts/${c.id}`)).body).state).toBe('approved');

    const charge = await call('POST', '/charges', { ...requests.create_charge, authority: { type: 'checkout_id', value: c.id } });
    expect(charge.status).toBe(201);
    const { id: _ch, created_date: _d, ...chargeDoc } = answers.charge_authorised.body;
    expect(TwistoCharge.parse(charge.body)).toMatchObject(chargeDoc);
    expect(await call('POST', `/charges/${charge.body.id}/capture`, { amount: '200.00' })).toMatchObject({
      status: 400,
      body: { amount: [expect.stringContaining('294.00')] },
    });
    const captured = await call('POST', `/charges/${charge.body.id}/capture`, requests.capture_charge);
    expect(TwistoCharge.parse(captured.body)).toMatchObject({ state: 'captured', captured_amount: '294.00' });
    expect(TwistoCheckout.parse((await call('GET', `/checkouts/${c.id}`)).body).state).toBe('completed');

    const refund = await call('POST', '/refunds', { ...requests.create_refund, checkout_id: c.id });
    expect(refund.status).toBe(201);
    const { id: _r, created_date: _rd, ...refundDoc } = answers.refund_created.body;
    expect(TwistoRefund.parse(refund.body)).toMatchObject({ ...refundDoc, checkout_id: c.id });
    expect(TwistoRefundList.parse((await call('GET', `/refunds?checkoutId=${c.id}&limit=200&skip=0`)).body)).toMatchObject({
      count: 1,
      items: [{ id: refund.body.id, reference: 'RF-1' }],
    });
    expect(TwistoRefund.parse((await call('GET', `/refunds/${refund.body.id}`)).body).id).toBe(refund.body.id);

    // The webhooks: unsigned JSON in the sheet's shape, one per change.
    await until(() => received.length >= 3);
    const events = received.map((r) => TwistoWebhook.parse(JSON.parse(r.body)));
    expect(events.map((e) => e.state)).toEqual(['approved', 'completed', 'completed']);
    expect(events[2]).toMatchObject({ checkout_id: c.id, total_amount: '294.00', refunded_amount: '100.00' });
    // Issue 21: the keys of Twisto's published psp-api webhook (the sandbox sent the merchant API's external_id too).
    expect(Object.keys(JSON.parse(received[0]!.body))).toEqual(Object.keys(published('webhook')));
    expect(Object.keys(events[0]!).sort()).toEqual(Object.keys(notifications.approved).sort());
    expect(Object.keys(received[0]!.headers).filter((h) => /signature/i.test(h))).toEqual([]);
  });

  it("refusals in the fixtures' bodies: wrong key, missing fields, a partial or early charge, a cancel after the charge", async () => {
    expect(await call('POST', '/checkouts', requests.create_checkout, 'not_a_key')).toEqual({ status: 401, body: answers.unauthorized.body });
    expect((await call('GET', '/checkouts/chk_x', undefined, null)).body).toMatchObject({ code: 'not_authenticated' });
    const bad = { ...requests.create_checkout, config: {}, shopper: { ...requests.create_checkout.shopper, email: 'nope' } };
    expect(await call('POST', '/checkouts', bad)).toEqual({ status: 400, body: answers.validation_error.body });
    const item = {
      ...requests.create_checkout,
      order: { ...requests.create_checkout.order, items: [requests.create_checkout.order.items[0], { name: 'X', amount: '0.00', quantity: 0, type: 'sku' }] },
    };
    expect(await call('POST', '/checkouts', item)).toEqual({ status: 400, body: answers.item_error.body });
    expect(await call('GET', '/checkouts/chk_nope')).toEqual({ status: 404, body: answers.not_found.body });

    const c = (await call('POST', '/checkouts', requests.create_checkout)).body;
    const early = await call('POST', '/charges', { ...requests.create_charge, authority: { type: 'checkout_id', value: c.id } });
    expect(early).toEqual({ status: 400, body: { ...answers.not_chargeable.body, detail: `Checkout ${c.id} is not chargeable (state created).` } });
    await shopper(c.uri, 'approve');
    expect(await call('POST', '/charges', { ...requests.create_charge, amount: '100.00', authority: { type: 'checkout_id', value: c.id } })).toEqual({
      status: 400,
      body: answers.partial_charge.body,
    });
    expect((await call('POST', '/charges', { ...requests.create_charge, capture: true, authority: { type: 'checkout_id', value: c.id } })).body.state).toBe(
      'captured',
    );
    expect(await call('POST', `/checkouts/${c.id}/cancel`)).toEqual({ status: 400, body: answers.cancel_refused.body });
  });

  it("magic: +decline cancels at the scoring, the shopper's deny cancels, +refund_fail refuses refunds in the fixture's body", async () => {
    const declined = (await call('POST', '/checkouts', { ...requests.create_checkout, shopper: { email: 'jan+decline@b.cz' } })).body;
    expect(await shopper(declined.uri, 'approve')).toContain('state=cancelled');
    expect((await call('GET', `/checkouts/${declined.id}`)).body.state).toBe('cancelled');
    const denied = (await call('POST', '/checkouts', requests.create_checkout)).body;
    await shopper(denied.uri, 'deny');
    expect((await call('GET', `/checkouts/${denied.id}`)).body.state).toBe('cancelled');
    const rf = (await call('POST', '/checkouts', { ...requests.create_checkout, shopper: { email: 'jan+refund_fail@b.cz' } })).body;
    await shopper(rf.uri, 'approve');
    await call('POST', '/charges', { ...requests.create_charge, capture: true, authority: { type: 'checkout_id', value: rf.id } });
    expect(await call('POST', '/refunds', { ...requests.create_refund, checkout_id: rf.id })).toEqual({ status: 400, body: answers.refund_rejected.body });
  });

  it("issue 21: Twisto's published examples are accepted and answered in their keys; its published rules refuse", async () => {
    const c = (await call('POST', '/checkouts', requests.create_checkout)).body;
    expect(Object.keys(c)).toEqual(Object.keys(published('checkout')));
    await shopper(c.uri, 'approve');
    // Twisto's charge example, filled with this checkout and a currency Twisto takes (the example's is "str").
    const charge = await call('POST', '/charges', { ...published('charge-create-request'), authority: { type: 'checkout_id', value: c.id }, currency: 'CZK' });
    expect(charge.status).toBe(201);
    expect(Object.keys(charge.body)).toEqual(Object.keys(published('charge')));
    await call('POST', `/charges/${charge.body.id}/capture`, requests.capture_charge);
    const refund = await call('POST', '/refunds', { ...published('refund-create-request'), checkout_id: c.id, amount: '10.00' });
    expect(refund.status).toBe(201);
    expect(Object.keys(refund.body)).toEqual(Object.keys(published('refund')));

    // Published lengths the sandbox did not know (it took 255 and 200): names <= 40, the charge's reference <= 140.
    const longName = { ...requests.create_checkout, shopper: { ...requests.create_checkout.shopper, first_name: 'F'.repeat(41) } };
    expect(await call('POST', '/checkouts', longName)).toEqual({
      status: 400,
      body: { shopper: { first_name: ['Ensure this field has no more than 40 characters.'] } },
    });
    const c2 = (await call('POST', '/checkouts', requests.create_checkout)).body;
    await shopper(c2.uri, 'approve');
    const charge2 = { ...requests.create_charge, authority: { type: 'checkout_id', value: c2.id } };
    expect(await call('POST', '/charges', { ...charge2, reference: 'R'.repeat(141) })).toEqual({
      status: 400,
      body: { reference: ['Ensure this field has no more than 140 characters.'] },
    });
    expect(await call('POST', '/charges', { ...charge2, order: {} })).toEqual({ status: 400, body: { order: { reference: ['This field is required.'] } } });
    // The charge's reference is optional ("we will generate a random one").
    const { reference: _r, ...noReference } = charge2;
    expect((await call('POST', '/charges', noReference)).status).toBe(201);
  });

  it('issue 21: a repeated Idempotency-Key on a transactional call gets the first answer (one charge, one refund)', async () => {
    const c = (await call('POST', '/checkouts', requests.create_checkout)).body;
    await shopper(c.uri, 'approve');
    const body = { ...requests.create_charge, capture: true, authority: { type: 'checkout_id', value: c.id } };
    const first = await call('POST', '/charges', body, KEY, 'op_charge_1');
    expect(first.status).toBe(201);
    expect(await call('POST', '/charges', body, KEY, 'op_charge_1')).toEqual(first);
    // Without the key a second charge of the completed checkout is refused: the key is what made the repeat safe.
    expect((await call('POST', '/charges', body)).status).toBe(400);
    const rf = { ...requests.create_refund, checkout_id: c.id };
    const r1 = await call('POST', '/refunds', rf, KEY, 'op_refund_1');
    expect(await call('POST', '/refunds', rf, KEY, 'op_refund_1')).toEqual(r1);
    expect(TwistoRefundList.parse((await call('GET', `/refunds?checkoutId=${c.id}`)).body).count).toBe(1);
  });
});
