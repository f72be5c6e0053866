// Rotation of MASTER_ENC_KEY: sealed values name their key, values sealed under the former key open while it is in
// MASTER_ENC_KEYS_PREVIOUS, `npm run reseal` moves them under the current key, and then the former key can go.
import { execFile } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { config } from '../lib/config.ts';
import { currentKeyId, keyIdOf, open, seal } from '../lib/secret-box.ts';
import { SEALED_FIELDS } from '../scripts/reseal.ts';
import { Stack } from './support/stack.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const [K1, K2] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];

describe('secret-box key ids', () => {
  const saved = { current: config.masterEncKey, previous: config.masterEncKeysPrevious };
  afterAll(() => {
    config.masterEncKey = saved.current;
    config.masterEncKeysPrevious = saved.previous;
  });
  const use = (current: string, previous = '') => {
    config.masterEncKey = current;
    config.masterEncKeysPrevious = previous;
  };

  it('opens a value sealed under a former key while that key is listed as previous, and only then', () => {
    use(K1);
    const id1 = currentKeyId();
    const sealed = seal('credential', 'mca_1');
    expect(keyIdOf(sealed)).toBe(id1);
    use(K2, K1);
    expect(currentKeyId()).not.toBe(id1);
    expect(open(sealed, 'mca_1')).toBe('credential');
    expect(keyIdOf(seal('credential', 'mca_1'))).toBe(currentKeyId());
    expect(() => open(sealed, 'mca_2')).toThrow(); // still bound to its record
    use(K2);
    expect(() => open(sealed, 'mca_1')).toThrow(/sealed under key/);
  });

  it('opens values sealed before key ids (v1) under the current or a previous key', () => {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', Buffer.from(K1, 'hex'), iv);
    c.setAAD(Buffer.from('pro_1'));
    const body = Buffer.concat([c.update('old hash key', 'utf8'), c.final()]);
    const v1 = ['v1', iv.toString('base64'), c.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    use(K1);
    expect(open(v1, 'pro_1')).toBe('old hash key');
    use(K2, K1);
    expect(open(v1, 'pro_1')).toBe('old hash key');
    use(K2);
    expect(() => open(v1, 'pro_1')).toThrow();
  });
});

describe('rotating MASTER_ENC_KEY on a running stack', () => {
  let stack: Stack;
  afterAll(async () => stack?.stop());

  it('old data opens after rotation, is re-sealed by npm run reseal, and reads under the new key alone', async () => {
    stack = await Stack.start({ MASTER_ENC_KEY: K1 });
    const admin = stack.adminKey;
    const { merchant_id, api_key } = await stack.merchant();
    const prof = await stack.api(
      'POST',
      `/account/${merchant_id}/business_profile`,
      { profile_name: 'rot', payment_response_hash_key: 'hash-key-sealed-under-k1' },
      admin,
    );
    const mca = await stack.api(
      'POST',
      `/account/${merchant_id}/connectors`,
      {
        connector_name: 'service_test',
        profile_id: prof.body.profile_id,
        connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
      },
      admin,
      { 'idempotency-key': 'mca-under-k1' },
    );
    expect([prof.status, mca.status]).toEqual([200, 200]);

    const db = await stack.db();
    const sealedIds = async () => {
      const ids: string[] = [];
      for (const { collection, field } of SEALED_FIELDS) {
        for (const d of await db
          .collection(collection)
          .find({ [field]: { $type: 'string' } })
          .toArray())
          ids.push(keyIdOf(d[field]));
      }
      return ids;
    };
    const before = await sealedIds();
    expect(before.length).toBeGreaterThanOrEqual(3); // two profiles' hash keys, the credentials, the replayable answer
    expect(new Set(before).size).toBe(1);

    const reads = async () => {
      const p = await stack.api('GET', `/account/${merchant_id}/business_profile/${prof.body.profile_id}`, undefined, admin);
      const c = await stack.api('GET', `/account/${merchant_id}/connectors/${mca.body.merchant_connector_id}`, undefined, admin);
      const replay = await stack.api(
        'POST',
        `/account/${merchant_id}/connectors`,
        {
          connector_name: 'service_test',
          profile_id: prof.body.profile_id,
          connector_account_details: { auth_type: 'HeaderKey', api_key: 'sk_sandbox_service_test' },
        },
        admin,
        { 'idempotency-key': 'mca-under-k1' },
      );
      const pay = await stack.api(
        'POST',
        '/payments',
        { amount: 700, currency: 'EUR', profile_id: prof.body.profile_id, confirm: true, payment_method: 'pay_later', customer: { email: 'r@example.com' } },
        api_key,
      );
      return {
        profile: [p.status, p.body.payment_response_hash_key],
        connector: c.status,
        replay: [replay.status, replay.body.merchant_connector_id],
        payment: pay.body.status,
      };
    };
    const readable = { profile: [200, 'hash-key-sealed-under-k1'], connector: 200, replay: [200, mca.body.merchant_connector_id], payment: 'succeeded' };
    const rotate = async (vars: Record<string, string>, parts: ('gateway' | 'worker')[] = ['gateway', 'worker']) => {
      Object.assign(stack.env, vars);
      for (const part of parts) await stack.restart(part);
    };

    // 1. Rotation: K2 is current, K1 previous. Old values open; nothing is re-sealed by reading.
    await rotate({ MASTER_ENC_KEY: K2, MASTER_ENC_KEYS_PREVIOUS: K1 });
    expect(await reads()).toEqual(readable);

    // 2. Without K1 and before re-sealing, they do not: the key id names the missing key.
    await rotate({ MASTER_ENC_KEYS_PREVIOUS: '' }, ['gateway']);
    expect((await stack.api('GET', `/account/${merchant_id}/business_profile/${prof.body.profile_id}`, undefined, admin)).status).toBe(500);

    // 3. npm run reseal (with K1 still previous) moves every sealed value under K2.
    const out = await promisify(execFile)(process.execPath, ['scripts/reseal.ts'], {
      cwd: root,
      env: { ...process.env, ...stack.env, MASTER_ENC_KEYS_PREVIOUS: K1 },
    });
    expect(out.stdout).toMatch(/re-sealed under key/);
    const after = await sealedIds();
    expect(after.length).toBe(before.length);
    expect(new Set(after).size).toBe(1);
    expect(after[0]).not.toBe(before[0]);

    // 4. K1 dropped: everything reads under K2 alone.
    await rotate({ MASTER_ENC_KEYS_PREVIOUS: '' });
    expect(await reads()).toEqual(readable);
  });
});
