// Admin bootstrap: merchant accounts and API keys, shaped like the leading switch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start();
});
afterAll(async () => stack?.stop());

describe('merchant accounts and API keys', () => {
  it('creates a merchant with a publishable key, then a secret key shown once and stored only as a keyed hash', async () => {
    const m = await stack.api('POST', '/accounts', { merchant_id: 'shop_1', merchant_name: 'Shop One' }, stack.adminKey);
    expect(m.status).toBe(200);
    expect(m.body).toMatchObject({ merchant_id: 'shop_1', merchant_name: 'Shop One' });
    expect(m.body.publishable_key).toMatch(/^pk_snd_[0-9a-f]{32}$/);

    const k = await stack.api('POST', '/api_keys/shop_1', { name: 'server', expiration: 'never' }, stack.adminKey);
    expect(k.status).toBe(200);
    expect(k.body).toMatchObject({ merchant_id: 'shop_1', name: 'server', expiration: 'never' });
    expect(k.body.api_key).toMatch(/^snd_[A-Za-z0-9]{64}$/);
    expect(k.body.key_id).toBeTruthy();

    const db = await stack.db();
    const stored = JSON.stringify(await db.collection('api_keys').find({}).toArray());
    expect(stored).not.toContain(k.body.api_key);
    expect(stored).not.toContain(k.body.api_key.slice(12));
    const doc = await db.collection('api_keys').findOne({ key_id: k.body.key_id });
    expect(doc!.key_hash).toMatch(/^[0-9a-f]{64}$/);

    // The new merchant can use service_test at once.
    const p = await stack.api('POST', '/payments', { amount: 100, currency: 'EUR', confirm: true, payment_method: 'pay_later' }, k.body.api_key);
    expect(p.body).toMatchObject({ status: 'succeeded', merchant_id: 'shop_1', connector: 'service_test' });
  });

  it('needs the admin key: none, a merchant key or a wrong one -> 401, nothing created', async () => {
    const { api_key } = await stack.merchant();
    for (const key of [undefined, api_key, 'admin_wrong']) {
      const r = await stack.api('POST', '/accounts', { merchant_id: 'intruder' }, key);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('IR_01');
    }
    expect(await (await stack.db()).collection('merchants').countDocuments({ merchant_id: 'intruder' })).toBe(0);
  });

  it('rejects bad bodies naming the field; a duplicate merchant_id -> 409; keys for an unknown merchant -> 404', async () => {
    expect((await stack.api('POST', '/accounts', { merchant_id: 'bad id!' }, stack.adminKey)).body.error.param).toBe('merchant_id');
    expect((await stack.api('POST', '/accounts', { colour: 'red' }, stack.adminKey)).body.error.param).toBe('colour');
    await stack.api('POST', '/accounts', { merchant_id: 'dup_1' }, stack.adminKey);
    expect((await stack.api('POST', '/accounts', { merchant_id: 'dup_1' }, stack.adminKey)).status).toBe(409);
    expect((await stack.api('POST', '/api_keys/dup_1', { expiration: 'never' }, stack.adminKey)).body.error).toMatchObject({ code: 'IR_04', param: 'name' });
    expect((await stack.api('POST', '/api_keys/dup_1', { name: 'k', expiration: 'tomorrow' }, stack.adminKey)).body.error.param).toBe('expiration');
    expect((await stack.api('POST', '/api_keys/dup_1', { name: 'k', expiration: '2020-01-01T00:00:00Z' }, stack.adminKey)).body.error.param).toBe('expiration');
    expect((await stack.api('POST', '/api_keys/nobody', { name: 'k', expiration: 'never' }, stack.adminKey)).status).toBe(404);
  });

  it('an expired key is refused with the same 401', async () => {
    const m = await stack.merchant();
    const soon = new Date(Date.now() + 1500).toISOString();
    const k = await stack.api('POST', `/api_keys/${m.merchant_id}`, { name: 'short', expiration: soon }, stack.adminKey);
    expect((await stack.api('GET', '/payments/pay_x', undefined, k.body.api_key)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 1600));
    const r = await stack.api('GET', '/payments/pay_x', undefined, k.body.api_key);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('IR_01');
  });

  it('GET /health answers 200 with every part up, and 503 naming the part that is down', async () => {
    const up = await stack.api('GET', '/health');
    expect(up.status).toBe(200);
    expect(up.body.parts).toMatchObject({ mongodb: 'up', redis: 'up', payment_state: 'up', provider_sandbox: 'up', workers: { service_test: 1 } });
    await stack.kill('worker');
    // BullMQ lists workers by their Redis connection, which the kill closed.
    const down = await stack.api('GET', '/health');
    expect(down.status).toBe(503);
    expect(down.body.parts.workers.service_test).toBe(0);
    await stack.startPart('worker');
    await stack.waitHealthy();
  });
});
