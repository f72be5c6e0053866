// Customers created or attached by payments (spec 4.1 customer object; deprecated customer_id/email/name/phone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant()));
afterAll(async () => stack?.stop());

const create = (body: Record<string, unknown>, k = key) => stack.api('POST', '/payments', { amount: 1_000, currency: 'EUR', ...body }, k);
const stored = async (customerId: string, merchant = merchantId) =>
  (await stack.db())
    .collection('customers')
    .find({ customer_id: customerId, merchant_id: merchant }, { projection: { _id: 0 } })
    .toArray();

describe('customers on payments', () => {
  it('a customer object with a new id creates the customer; the payment mirrors it with an ephemeral key', async () => {
    const r = await create({ customer: { id: 'cus_shop_1', name: 'Ada Lovelace', email: 'ada@example.com', phone: '1512345678', phone_country_code: '+49' } });
    expect(r.status).toBe(200);
    expect(r.body.customer).toEqual({ id: 'cus_shop_1', name: 'Ada Lovelace', email: 'ada@example.com', phone: '1512345678', phone_country_code: '+49' });
    expect(r.body).toMatchObject({ customer_id: 'cus_shop_1', name: 'Ada Lovelace', email: 'ada@example.com', phone: '1512345678' });
    expect(r.body.ephemeral_key).toMatchObject({ customer_id: 'cus_shop_1', secret: expect.stringMatching(/^epk_/) });
    expect(r.body.ephemeral_key.expires).toBeGreaterThan(r.body.ephemeral_key.created_at);
    const [c, ...more] = await stored('cus_shop_1');
    expect(more).toHaveLength(0);
    expect(c).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', phone: '1512345678', phone_country_code: '+49' });
  });

  it('the deprecated customer_id attaches the stored customer: its details fill the payment, no second record', async () => {
    const r = await create({ customer_id: 'cus_shop_1' });
    expect(r.body.customer).toMatchObject({ id: 'cus_shop_1', name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(r.body.email).toBe('ada@example.com');
    expect(await stored('cus_shop_1')).toHaveLength(1);
  });

  it('new details for a known customer update the record; what the request leaves out is kept', async () => {
    const r = await create({ customer: { id: 'cus_shop_1', email: 'ada@lovelace.example' } });
    expect(r.body.customer).toMatchObject({ name: 'Ada Lovelace', email: 'ada@lovelace.example' });
    expect((await stored('cus_shop_1'))[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@lovelace.example' });
  });

  it('deprecated email/name/phone alone create a customer with a generated id', async () => {
    const r = await create({ email: 'grace@example.com', name: 'Grace Hopper', phone: '555' });
    expect(r.body.customer).toMatchObject({
      id: expect.stringMatching(/^cus_[A-Za-z0-9]{20}$/),
      email: 'grace@example.com',
      name: 'Grace Hopper',
      phone: '555',
    });
    expect(await stored(r.body.customer.id)).toHaveLength(1);
  });

  it('birth_date, gender, locale and ssn of the customer object appear on the payment', async () => {
    const r = await create({ customer: { id: 'cus_shop_2', birth_date: '1990-01-31', gender: 'female', locale: 'de-DE', ssn: '123-45-6789' } });
    expect(r.body).toMatchObject({ birth_date: '1990-01-31', gender: 'female', locale: 'de-DE', ssn: '123-45-6789' });
  });

  it('customer.id and customer_id that differ -> 400 naming customer_id, nothing stored', async () => {
    const db = await stack.db();
    const before = await db.collection('customers').countDocuments({});
    const r = await create({ customer: { id: 'cus_a' }, customer_id: 'cus_b' });
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('customer_id');
    expect(await db.collection('customers').countDocuments({})).toBe(before);
  });

  it("customer ids are per merchant: another merchant's customer of the same id is not attached", async () => {
    const other = await stack.merchant();
    const r = await create({ customer_id: 'cus_shop_1' }, other.api_key);
    expect(r.body.customer).toMatchObject({ id: 'cus_shop_1', name: null, email: null });
    expect(await stored('cus_shop_1', other.merchant_id)).toHaveLength(1);
    expect((await stored('cus_shop_1'))[0].email).toBe('ada@lovelace.example');
  });

  it('a customer given on update or confirm is saved too', async () => {
    const { body: p } = await create({});
    const u = await stack.api('POST', `/payments/${p.payment_id}`, { customer: { id: 'cus_shop_3', name: 'Linus' } }, key);
    expect(u.body.customer).toMatchObject({ id: 'cus_shop_3', name: 'Linus' });
    expect(await stored('cus_shop_3')).toHaveLength(1);
    const c = await stack.api(
      'POST',
      `/payments/${p.payment_id}/confirm`,
      { payment_method: 'pay_later', customer: { id: 'cus_shop_3', email: 'linus@example.com' } },
      key,
    );
    expect(c.body.customer).toMatchObject({ id: 'cus_shop_3', name: 'Linus', email: 'linus@example.com' });
    expect((await stored('cus_shop_3'))[0]).toMatchObject({ name: 'Linus', email: 'linus@example.com' });
  });
});
