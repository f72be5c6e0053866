// Dashboard passwords, hashed with scrypt (memory-hard, node:crypto). Stored as
// `scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>` (base64url): the parameters travel with the hash, so raising them
// later leaves older hashes verifiable. N=2^15, r=8, p=3 takes 32 MiB and is one of OWASP's equivalent scrypt settings.
import { randomBytes, scrypt as scryptCb, type ScryptOptions, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  /** log2 of the cost N. */
  ln: number;
  r: number;
  p: number;
}

export const DEFAULT_PARAMS: ScryptParams = { ln: 15, r: 8, p: 3 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Stored parameters beyond these are refused rather than run (a corrupt or hostile row must not exhaust memory). */
const LIMITS: ScryptParams = { ln: 20, r: 16, p: 16 };

const scrypt = (password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> => {
  const N = 2 ** params.ln;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 128 * N * params.r * 2 + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))));
};

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, params);
  return `scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const STORED = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{16,})$/;

function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const m = STORED.exec(stored);
  if (!m) return null;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (params.ln < 1 || params.ln > LIMITS.ln || params.r < 1 || params.r > LIMITS.r || params.p < 1 || params.p > LIMITS.p) return null;
  return { params, salt: Buffer.from(m[4]!, 'base64url'), key: Buffer.from(m[5]!, 'base64url') };
}

/** Whether `password` is the one `stored` was made from (constant-time compare); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const s = parse(stored);
  if (!s) return false;
  const key = await scrypt(password, s.salt, s.params);
  return key.length === s.key.length && timingSafeEqual(key, s.key);
}

let dummy: Promise<string> | undefined;
/** The dummy hash, made once (called when the sign-in page is set up, so the first unknown email costs no more). */
export const dummyHash = (): Promise<string> => {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  return dummy;
};

/**
 * Spends the time of a real check for a sign-in with an unknown email, so the answer's timing does not tell which
 * emails have an account. Always false.
 */
export async function verifyNobody(password: string): Promise<false> {
  await verifyPassword(password, await dummyHash());
  return false;
}
