import { describe, expect, it } from 'vitest';
import { hashPassword, verifyNobody, verifyPassword } from './password.ts';

// Small parameters keep the unit test quick; the format and the checks are the same as with the defaults.
const FAST = { ln: 10, r: 8, p: 1 };

describe('scrypt passwords', () => {
  it('stores scrypt with its parameters and a per-hash random salt, never the password', async () => {
    const a = await hashPassword('correct horse battery staple', FAST);
    const b = await hashPassword('correct horse battery staple', FAST);
    expect(a).toMatch(/^scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
  });

  it('verifies the password it was made from and nothing else', async () => {
    const stored = await hashPassword('correct horse battery staple', FAST);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false);
    expect(await verifyPassword('Correct horse battery staple', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('uses the parameters stored with the hash (older or stronger hashes stay verifiable)', async () => {
    const stored = await hashPassword('pw pw pw pw pw', { ln: 11, r: 4, p: 2 });
    expect(stored).toMatch(/^scrypt\$ln=11,r=4,p=2\$/);
    expect(await verifyPassword('pw pw pw pw pw', stored)).toBe(true);
  });

  it('the defaults are memory-hard (N=2^15, r=8: 32 MiB)', async () => {
    const stored = await hashPassword('correct horse battery staple');
    const [, ln, r] = /^scrypt\$ln=(\d+),r=(\d+),p=\d+\$/.exec(stored)!;
    expect(128 * 2 ** Number(ln) * Number(r)).toBeGreaterThanOrEqual(32 * 1024 * 1024);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
  });

  it('refuses a malformed hash, or one whose parameters are out of bounds, without running it', async () => {
    const stored = await hashPassword('pw pw pw pw pw', FAST);
    expect(await verifyPassword('pw pw pw pw pw', stored.replace('scrypt$', 'bcrypt$'))).toBe(false);
    expect(await verifyPassword('pw pw pw pw pw', stored.replace('ln=10', 'ln=30'))).toBe(false);
    expect(await verifyPassword('pw pw pw pw pw', 'pw pw pw pw pw')).toBe(false);
  });

  it('an unknown email still spends a check, and is refused', async () => {
    expect(await verifyNobody('anything at all')).toBe(false);
  });
});
