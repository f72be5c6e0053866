// No card data (issue 19, item 10), through the real processes: a card under pay_later and a card number in a
// free-form field are refused with 400 naming the field and nothing is stored; no answer and no log carries one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
beforeAll(async () => ({ stack, api_key: key } = await Stack.withMerchant()));
afterAll(async () => stack?.stop());

const CARD = { card_number: '4111111111111111', cvc: '737' };
const newId = () => `pay_card${Math.random().toString(36).slice(2)}`.padEnd(30, 'x');
const create = (body: Record<string, unknown>) => stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', ...body }, key);
const stored = async (paymentId: string) => (await stack.db()).collection('payments').countDocuments({ payment_id: paymentId });
/** Any card number or card field in a JSON text. */
const CARD_DATA = /4111[ -]?1111[ -]?1111[ -]?1111|card_number|"cvc"/;

describe('card data', () => {
  it('POST /payments with pay_later.card: 400 naming the field, nothing stored', async () => {
    const id = newId();
    const r = await create({
      payment_id: id,
      payment_method: 'pay_later',
      payment_method_type: 'invoice',
      payment_method_data: { pay_later: { invoice: {}, card: CARD } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'IR_07', param: 'payment_method_data.pay_later.card' });
    expect(await stored(id)).toBe(0);
    expect((await stack.api('GET', `/payments/${id}`, undefined, key)).status).toBe(404);
  });

  it('a test card number in a metadata value (and other free-form fields): 400 saying card numbers are not accepted, nothing stored', async () => {
    for (const [body, param] of [
      [{ metadata: { note: '4111 1111 1111 1111' } }, 'metadata.note'],
      [{ metadata: { deep: { list: ['x', { pan: '4111-1111-1111-1111' }] } } }, 'metadata.deep.list.1.pan'],
      [{ description: 'card 4111111111111111' }, 'description'],
      [{ order_details: [{ product_name: 'Gift 4111 1111 1111 1111', quantity: 1, amount: 1_000 }] }, 'order_details.0.product_name'],
      [{ connector_metadata: { x: '4111111111111111' } }, 'connector_metadata.x'],
    ] as const) {
      const id = newId();
      const r = await create({ payment_id: id, ...body });
      expect(r.status, param).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'IR_05', param });
      expect(r.body.error.message).toMatch(/card numbers are not accepted/);
      expect(await stored(id)).toBe(0);
    }
    // Update and confirm take the same rules.
    const { body: p } = await create({ metadata: { order: 'A-1' } });
    const upd = await stack.api('POST', `/payments/${p.payment_id}`, { metadata: { note: '4111 1111 1111 1111' } }, key);
    expect(upd.body.error).toMatchObject({ code: 'IR_05', param: 'metadata.note' });
    const conf = await stack.api(
      'POST',
      `/payments/${p.payment_id}/confirm`,
      { payment_method: 'pay_later', payment_method_data: { pay_later: { invoice: {}, card: CARD } } },
      key,
    );
    expect(conf.body.error).toMatchObject({ code: 'IR_07', param: 'payment_method_data.pay_later.card' });
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body).toMatchObject({
      status: 'requires_confirmation',
      metadata: { order: 'A-1' },
      payment_method_data: null,
    });
  });

  it('an id, an amount, a phone number, an IBAN and a timestamp are not card numbers', async () => {
    const r = await create({
      merchant_order_reference_id: 'ORD20240501123456789',
      phone: '+4541111111111111',
      description: 'IBAN DE62 3704 0044 0532 0130 01',
      metadata: { at: 1714566896789, sent: '2024-05-01T12:34:56Z', amount_cents: 4_111_111_111 },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it('GET of a payment never contains card data: a paid payment, and one stored with a card before the rule', async () => {
    const paid = await create({
      confirm: true,
      payment_method: 'pay_later',
      payment_method_type: 'invoice',
      payment_method_data: { pay_later: { invoice: {} } },
      customer: { email: 'jane@example.com' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const got = await stack.api('GET', `/payments/${paid.body.payment_id}`, undefined, key);
    expect(got.body.payment_method_data).toEqual({ pay_later: { invoice: {} } });
    // A row written before pay_later was strict: its card is never answered, by GET or by the list.
    const { body: old } = await create({ description: 'stored before the rule' });
    await (await stack.db()).collection('payments').updateOne({ payment_id: old.payment_id }, { $set: { payment_method_data: { pay_later: { card: CARD } } } });
    const read = await stack.api('GET', `/payments/${old.payment_id}`, undefined, key);
    expect(read.status).toBe(200);
    expect(read.body.payment_method_data).toBeNull();
    const list = await stack.api('GET', '/payments/list?limit=100', undefined, key);
    for (const text of [JSON.stringify(got.body), JSON.stringify(read.body), JSON.stringify(list.body)]) expect(text).not.toMatch(CARD_DATA);
  });

  it('no process logged card data', () => {
    for (const [part, lines] of Object.entries(stack.logs))
      expect(
        lines.filter((l) => CARD_DATA.test(l)),
        part,
      ).toEqual([]);
  });
});
