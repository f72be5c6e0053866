// Secrets at rest (provider credentials, webhook hash keys, replayed answers): AES-256-GCM under MASTER_ENC_KEY. The
// record's id is bound in as associated data, so a ciphertext copied onto another record does not decrypt.
// A sealed value names the key it was sealed under (`v2:<key id>:iv:tag:body`), so MASTER_ENC_KEY can be rotated:
// the old key moves to MASTER_ENC_KEYS_PREVIOUS, values still open under it, and `npm run reseal` re-seals them
// under the current key. `v1:iv:tag:body` values (before key ids) are tried under every configured key.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { config, isKeyHex } from './config.ts';

interface Key {
  id: string;
  bytes: Buffer;
}

function parseKey(hex: string, name: string): Key {
  if (!isKeyHex(hex)) throw new Error(`${name} must be 64 hex characters`);
  const bytes = Buffer.from(hex, 'hex');
  // The key id is derived from the key (nothing to number by hand), one-way and too short to help an attacker.
  return { id: createHmac('sha256', bytes).update('bnpl secret-box key id').digest('hex').slice(0, 12), bytes };
}

let cached: { from: string; current: Key; all: Map<string, Key> } | undefined;
function keys() {
  const from = `${config.masterEncKey}|${config.masterEncKeysPrevious}`;
  if (cached?.from !== from) {
    const current = parseKey(config.masterEncKey, 'MASTER_ENC_KEY');
    const previous = config.masterEncKeysPrevious
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((k, i) => parseKey(k, `MASTER_ENC_KEYS_PREVIOUS[${i}]`));
    cached = { from, current, all: new Map([...previous, current].map((k) => [k.id, k])) };
  }
  return cached;
}

/** The id of the key new values are sealed under. */
export const currentKeyId = (): string => keys().current.id;

/** The id of the key a sealed value names ('' for v1 values, sealed before key ids). */
export function keyIdOf(sealed: string): string {
  return sealed.startsWith('v2:') ? (sealed.split(':')[1] ?? '') : '';
}

export function seal(plaintext: string, boundTo: string): string {
  const { id, bytes } = keys().current;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', bytes, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v2', id, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

function decrypt(key: Buffer, iv: string, tag: string, body: string, boundTo: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(boundTo));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

export function open(sealed: string, boundTo: string): string {
  const parts = sealed.split(':');
  const { all } = keys();
  if (parts[0] === 'v2' && parts.length === 5) {
    const [, id, iv, tag, body] = parts as [string, string, string, string, string];
    const key = all.get(id);
    if (!key) throw new Error(`sealed under key ${id}, which is neither MASTER_ENC_KEY nor in MASTER_ENC_KEYS_PREVIOUS`);
    return decrypt(key.bytes, iv, tag, body, boundTo);
  }
  if (parts[0] === 'v1' && parts.length === 4) {
    const [, iv, tag, body] = parts as [string, string, string, string];
    for (const key of all.values()) {
      try {
        return decrypt(key.bytes, iv, tag, body, boundTo);
      } catch {
        /* the next key */
      }
    }
    throw new Error('a v1 sealed value opens under none of MASTER_ENC_KEY and MASTER_ENC_KEYS_PREVIOUS');
  }
  throw new Error('not a sealed secret');
}

/** What a response may show of a secret: enough to recognise it, never enough to use it. */
export const mask = (s: string) => (s.length > 8 ? `${s.slice(0, 4)}${'*'.repeat(8)}` : '*'.repeat(8));

/**
 * A secret derived from MASTER_ENC_KEY for `label` (HMAC-SHA256, hex): the current key's first, then one per key in
 * MASTER_ENC_KEYS_PREVIOUS, so that a value derived before a key rotation is still recognised until the old key goes.
 * For secrets that need no storage (the default connector account's notification secret, one per merchant).
 */
export function derivedSecrets(label: string): string[] {
  const { current, all } = keys();
  return [current, ...[...all.values()].filter((k) => k.id !== current.id)].map((k) =>
    createHmac('sha256', k.bytes).update(`bnpl derived secret: ${label}`).digest('hex'),
  );
}
