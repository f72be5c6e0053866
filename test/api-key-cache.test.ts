// Gateways keep the API keys they read (API_KEY_CACHE_MS), and a key revoked, or a merchant deleted, through one
// gateway is refused by every other at once: the change is announced through Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let second: { url: string; stop: () => Promise<void> };
beforeAll(async () => {
  // Long enough that only the announcement can explain a refusal within the test.
  stack = await Stack.start({ API_KEY_CACHE_MS: '600000' });
  second = await stack.extraGateway();
});
afterAll(async () => {
  await second?.stop();
  await stack?.stop();
});

/** GET /payments/{unknown id} with `key`: 404 when the key is accepted, 401 when it is refused. */
const retrieve = async (base: string, key: string) => (await fetch(`${base}/payments/pay_none`, { headers: { 'api-key': key } })).status;

describe('API key cache across gateways', () => {
  it('a key revoked through one gateway is refused by another at once (which kept it, and without the announcement would still take it)', async () => {
    const { merchant_id, api_key } = await stack.merchant();
    const keyId = (await stack.api('GET', `/api_keys/${merchant_id}/list`, undefined, stack.adminKey)).body[0].key_id;
    expect(await retrieve(stack.gatewayUrl, api_key)).toBe(404);
    expect(await retrieve(second.url, api_key)).toBe(404);

    // Changed in the database behind the gateways' back (no announcement): the second gateway answers from what it
    // kept (and checks the expiry it kept on every request), so it still takes the key.
    const db = await stack.db();
    await db.collection('api_keys').updateOne({ key_id: keyId }, { $set: { key_hash: 'moved_away' } });
    expect(await retrieve(second.url, api_key)).toBe(404);

    expect((await stack.api('DELETE', `/api_keys/${merchant_id}/${keyId}`, undefined, stack.adminKey)).body.revoked).toBe(true);
    expect(await retrieve(second.url, api_key)).toBe(401);
    expect(await retrieve(stack.gatewayUrl, api_key)).toBe(401);
  });

  it('an expiry moved closer through one gateway applies on another', async () => {
    const { merchant_id, api_key } = await stack.merchant();
    const keyId = (await stack.api('GET', `/api_keys/${merchant_id}/list`, undefined, stack.adminKey)).body[0].key_id;
    expect(await retrieve(second.url, api_key)).toBe(404);
    const soon = new Date(Date.now() + 1_500).toISOString();
    expect((await stack.api('POST', `/api_keys/${merchant_id}/${keyId}`, { expiration: soon }, stack.adminKey)).status).toBe(200);
    expect(await retrieve(second.url, api_key)).toBe(404);
    await new Promise((r) => setTimeout(r, 1_600));
    expect(await retrieve(second.url, api_key)).toBe(401);
  });

  it('a merchant deleted through one gateway: another refuses its secret and publishable keys at once', async () => {
    const { merchant_id, api_key } = await stack.merchant();
    const pk = (await stack.api('GET', `/accounts/${merchant_id}`, undefined, stack.adminKey)).body.publishable_key as string;
    expect(await retrieve(second.url, api_key)).toBe(404);
    // The publishable key opens GET /payments/{id} with the payment's client_secret only: 404 here means accepted.
    expect(await retrieve(second.url, pk)).not.toBe(401);
    expect((await stack.api('DELETE', `/accounts/${merchant_id}`, undefined, stack.adminKey)).status).toBe(200);
    expect(await retrieve(second.url, api_key)).toBe(401);
    expect(await retrieve(second.url, pk)).toBe(401);
  });
});
