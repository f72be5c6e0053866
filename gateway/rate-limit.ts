// Per-key rate limit: at most RATE_LIMIT_PER_SECOND requests per API key in each fixed one-second window, counted
// in Redis so every gateway process shares the count. Above it: 429 RL_01 with Retry-After (whole seconds). Mounted
// after keyAuth (it counts by req.caller.keyId) and before idempotency, so a refused request claims no key and
// changes nothing. If Redis fails or is slow the request goes through: the limiter must not take the API down.
// The keyless checkout calls of a payment link are counted the same way, by payment (CHECKOUT_RATE_LIMIT_PER_SECOND).
import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { config } from '../lib/config.ts';
import { errors } from '../lib/errors.ts';
import { log } from '../lib/log.ts';

/** Longer than the window, so a key outlives a little clock skew between gateways, and then goes. */
const KEY_TTL_MS = 2_000;
/** A Redis that does not answer in this long is treated as failed for this request. */
const REDIS_TIMEOUT_MS = 250;
/** At most one warning this often while Redis keeps failing (a warning per request would flood the log). */
const WARN_EVERY_MS = 10_000;

/** What a request is counted by: its API key, unless the route says otherwise. */
const byKey = (req: Request) => req.caller?.keyId;

export function rateLimit(redis: Redis, limit = config.rateLimitPerSecond, counterOf: (req: Request) => string | undefined = byKey) {
  if (limit <= 0) return (_req: Request, _res: Response, next: NextFunction) => next();

  let lastWarn = 0;
  let suppressed = 0;
  const warn = (err: unknown) => {
    const now = Date.now();
    if (now - lastWarn < WARN_EVERY_MS) { suppressed++; return; }
    log.warn('rate limit skipped: Redis failed; requests pass unlimited', { err, suppressed });
    lastWarn = now;
    suppressed = 0;
  };

  /** The window's count after this request; throws when Redis cannot tell in time. */
  async function count(keyId: string, epochSecond: number): Promise<number> {
    // Not connected: the command would wait in ioredis's offline queue; do not make the request wait.
    if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
    const key = `${config.redisPrefix}:ratelimit:${keyId}:${epochSecond}`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer in ${REDIS_TIMEOUT_MS} ms`)), REDIS_TIMEOUT_MS);
    });
    try {
      const replies = await Promise.race([redis.multi().incr(key).pexpire(key, KEY_TTL_MS).exec(), timeout]);
      if (!replies) throw new Error('MULTI aborted');
      const [incrErr, n] = replies[0]!;
      if (incrErr) throw incrErr;
      return Number(n);
    } finally {
      clearTimeout(timer);
    }
  }

  return async (req: Request, _res: Response, next: NextFunction) => {
    const keyId = counterOf(req);
    if (!keyId) return next();
    const nowMs = Date.now();
    const epochSecond = Math.floor(nowMs / 1000);
    let n: number;
    try {
      n = await count(keyId, epochSecond);
    } catch (err) {
      warn(err);
      return next();
    }
    if (n > limit) {
      // The window ends at the next whole second: always under a second away, so Retry-After is 1.
      return next(errors.rateLimited(Math.ceil(((epochSecond + 1) * 1000 - nowMs) / 1000)));
    }
    next();
  };
}
