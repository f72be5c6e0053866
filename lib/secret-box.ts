// Secrets at rest (provider credentials, webhook hash keys): AES-256-GCM under MASTER_ENC_KEY. The record's id is
// bound in as associated data, so a ciphertext copied onto another record does not decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { config } from './config.ts';

const VERSION = 'v1';

function key(): Buffer {
  if (!/^[0-9a-f]{64}$/i.test(config.masterEncKey)) throw new Error('MASTER_ENC_KEY must be 64 hex characters');
  return Buffer.from(config.masterEncKey, 'hex');
}

export function seal(plaintext: string, boundTo: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  cipher.setAAD(Buffer.from(boundTo));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

export function open(sealed: string, boundTo: string): string {
  const [version, iv, tag, body] = sealed.split(':');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(boundTo));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

/** What a response may show of a secret: enough to recognise it, never enough to use it. */
export const mask = (s: string) => (s.length > 8 ? `${s.slice(0, 4)}${'*'.repeat(8)}` : '*'.repeat(8));
