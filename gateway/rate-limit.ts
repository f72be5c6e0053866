// Rate limits, counted in Redis so every gateway process shares the count: at most `limit` requests in any rolling
// second per counter (a sliding log: a fixed window would let twice the limit through across its boundary, and a
// token bucket of that size likewise). Above it: 429 RL_01 with Retry-After (whole seconds). Counters:
// - per client address, mounted first in app.ts: covers bad keys, admin routes and keyless pages, and runs before
//   any key lookup (RATE_LIMIT_PER_ADDRESS_PER_SECOND);
// - per API key, after keyAuth and before idempotency, so a refused request claims no key and changes nothing
//   (RATE_LIMIT_PER_SECOND);
// - per payment for the keyless checkout calls of a payment link (CHECKOUT_RATE_LIMIT_PER_SECOND);
// - per email and address for the merchant dashboard's sign-in, over 15 minutes (DASHBOARD_SIGNIN_ATTEMPTS).
// If Redis fails or is slow the request goes through: the limiter must not take the API down.
import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { config } from '../lib/config.ts';
import { errors } from '../lib/errors.ts';
import { log } from '../lib/log.ts';

const WINDOW_MS = 1_000;
/** A Redis that does not answer in this long is treated as failed for this request. */
const REDIS_TIMEOUT_MS = 250;
/** At most one warning this often while Redis keeps failing (a warning per request would flood the log). */
const WARN_EVERY_MS = 10_000;

// The log of the window's admitted requests, a sorted set scored by Redis's own clock (gateways' clocks may
// differ). A refused request is not logged, so a client over the limit gets in again a second after its last
// admitted request. Answers {1, 0} when admitted, {0, ms until the oldest entry leaves the window} when refused.
const SLIDING_LOG = `
local now_t = redis.call('TIME')
local now = tonumber(now_t[1]) * 1000000 + tonumber(now_t[2])
local window = tonumber(ARGV[2]) * 1000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, math.ceil((tonumber(oldest[2]) + window - now) / 1000)}
`;

type SlidingLog = (key: string, limit: number, windowMs: number, member: string) => Promise<[number, number]>;

function slidingLog(redis: Redis): SlidingLog {
  const r = redis as Redis & { bnplSlidingLog?: SlidingLog };
  if (!r.bnplSlidingLog) redis.defineCommand('bnplSlidingLog', { numberOfKeys: 1, lua: SLIDING_LOG });
  return (...args) => r.bnplSlidingLog!(...args);
}

/** What a request is counted by: its API key, unless the mount says otherwise. */
const byKey = (req: Request) => req.caller?.keyId;

/** The client's address: the socket's, or X-Forwarded-For's as far as TRUST_PROXY trusts it (Express's req.ip). */
export const byAddress = (req: Request) => {
  const ip = req.ip ?? req.socket.remoteAddress;
  return ip ? `addr:${addressKey(ip)}` : undefined;
};

/** IPv4 as is (also IPv4-mapped IPv6); IPv6 by its /64, since one host commonly holds a whole /64. */
export function addressKey(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1];
  const [head, tail] = ip.replace(/%.*$/, '').toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/** `windowMs`: the rolling window the limit counts over (a second unless the mount says otherwise). */
export function rateLimit(redis: Redis, limit = config.rateLimitPerSecond, counterOf: (req: Request) => string | undefined = byKey, windowMs = WINDOW_MS) {
  if (limit <= 0) return (_req: Request, _res: Response, next: NextFunction) => next();
  const run = slidingLog(redis);

  let lastWarn = 0;
  let suppressed = 0;
  const warn = (err: unknown) => {
    const now = Date.now();
    if (now - lastWarn < WARN_EVERY_MS) {
      suppressed++;
      return;
    }
    log.warn('rate limit skipped: Redis failed; requests pass unlimited', { err, suppressed });
    lastWarn = now;
    suppressed = 0;
  };

  /** Admitted, or refused with the ms to wait; throws when Redis cannot tell in time. */
  async function admit(counter: string): Promise<{ ok: boolean; waitMs: number }> {
    // Not connected: the command would wait in ioredis's offline queue; do not make the request wait.
    if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer in ${REDIS_TIMEOUT_MS} ms`)), REDIS_TIMEOUT_MS);
    });
    try {
      const key = `${config.redisPrefix}:ratelimit:${counter}`;
      const [ok, waitMs] = await Promise.race([run(key, limit, windowMs, randomBytes(8).toString('hex')), timeout]);
      return { ok: ok === 1, waitMs };
    } finally {
      clearTimeout(timer);
    }
  }

  return async (req: Request, _res: Response, next: NextFunction) => {
    const counter = counterOf(req);
    if (!counter) return next();
    let verdict: { ok: boolean; waitMs: number };
    try {
      verdict = await admit(counter);
    } catch (err) {
      warn(err);
      return next();
    }
    if (!verdict.ok) return next(errors.rateLimited(verdict.waitMs / 1000));
    next();
  };
}
