import { createHash, randomBytes, randomFillSync, randomUUID } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random bytes drawn from a pool filled 4 kB at a time from the CSPRNG (as crypto.randomUUID does): one randomFillSync
 * per about 100 ids instead of one randomBytes call (and Buffer) per id (issue 24). Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++];
}

/** n characters from [A-Za-z0-9], uniformly (rejection sampling keeps the bias out). */
export function randomAlnum(n: number): string {
  let out = '';
  while (out.length < n) {
    const b = randomByte();
    if (b < 248) out += ALNUM[b % 62];
  }
  return out;
}

/** n characters from [A-Za-z0-9], fixed by `seed` (the same seed, the same characters). */
export function derivedAlnum(seed: string, n: number): string {
  let out = '';
  for (let i = 0; out.length < n; i++) {
    for (const b of createHash('sha256').update(`${i}:${seed}`).digest()) {
      if (b < 248) out += ALNUM[b % 62];
      if (out.length === n) break;
    }
  }
  return out;
}

/**
 * The request's Idempotency-Key claim (`<owner>:<key>`), for the duration of the request (gateway/idempotency.ts).
 * The ids a request creates are derived from it, so the same request run again (its gateway died mid-way and the
 * merchant retried) names the same payment, operation or refund, which already exist: it cannot create a second.
 */
export const idempotencyScope = new AsyncLocalStorage<{ claim: string; requestHash: string }>();

/** An id of `prefix` derived from the request's Idempotency-Key and `what`, or a random one without a key. */
export function requestId(prefix: string, what: string, random: () => string): string {
  const scope = idempotencyScope.getStore();
  // The request's hash too: a key reused after it expired, for another request, names new things.
  return scope ? `${prefix}_${derivedAlnum(`${scope.claim}|${scope.requestHash}|${what}`, 26)}` : random();
}

export const ids = {
  payment: () => `pay_${randomAlnum(26)}`,
  capture: () => `cap_${randomAlnum(26)}`,
  refund: () => `ref_${randomAlnum(26)}`,
  paymentLink: () => `plink_${randomAlnum(20)}`,
  profile: () => `pro_${randomAlnum(20)}`,
  connectorAccount: () => `mca_${randomAlnum(20)}`,
  hashKey: () => randomBytes(32).toString('hex'),
  operation: () => `op_${randomAlnum(26)}`,
  dispute: () => `dp_${randomAlnum(26)}`,
  merchant: () => `merchant_${Date.now()}${randomAlnum(6)}`,
  keyId: () => `dev_${randomAlnum(20)}`,
  secretKey: () => `snd_${randomAlnum(64)}`,
  publishableKey: () => `pk_snd_${randomBytes(16).toString('hex')}`,
  ephemeralKey: () => `eki_${randomAlnum(20)}`,
  ephemeralSecret: () => `epk_${randomAlnum(32)}`,
  clientSecret: (paymentId: string) => `${paymentId}_secret_${randomAlnum(20)}`,
  uuid: () => randomUUID(),
};

/**
 * What each id can look like (merchant-chosen or generated above). An id from a path or cursor that does not fit
 * cannot name anything stored, so it is answered as unknown without a query (and never carries NUL to the database).
 */
export const ID_FORMATS = {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse NUL
  payment: /^[^\u0000]{30}$/, // merchant-chosen or pay_ + 26: exactly 30 characters (spec 8), as PaymentId in schemas/common.ts
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse NUL
  customer: /^[^\u0000]{1,64}$/,
  merchant: /^[A-Za-z0-9_-]{1,64}$/,
  profile: /^pro_[A-Za-z0-9]{20}$/,
  connectorAccount: /^mca_[A-Za-z0-9]{20}$/,
  paymentLink: /^plink_[A-Za-z0-9]{20}$/,
  keyId: /^dev_[A-Za-z0-9]{20}$/,
  dispute: /^dp_[A-Za-z0-9]{26}$/,
} as const;

export const canExist = (kind: keyof typeof ID_FORMATS, id: unknown): id is string => typeof id === 'string' && ID_FORMATS[kind].test(id);
