// Access tokens of providers that issue them (OAuth2 client credentials and the like): fetched once per connector
// account, kept in Redis for every worker replica until shortly before they expire, refreshed on a provider's 401.
// A Redis lock makes one fetch serve every job that needs the token at once; a token is never logged.
import type { Redis } from 'ioredis';
import { config } from '../lib/config.ts';
import type { Outcome } from '../domain/payment.ts';
import { providerCall, ProviderUnavailable } from './provider-http.ts';
import type { TokenFlow } from './connectors/types.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** Refreshed this long before the provider says it expires. */
const EARLY_MS = 60_000;
const LOCK_MS = 10_000;

/** The provider refused the credentials when asked for a token: the job's outcome, not something to retry. */
export class TokenRefused extends Error {
  readonly outcome: Outcome;
  constructor(outcome: Outcome) {
    super(`token refused: ${outcome.error_code ?? outcome.kind}`);
    this.outcome = outcome;
  }
}

export class TokenCache {
  private readonly redis: Redis;
  /** Fetches in flight in this process, so concurrent jobs here wait for one. */
  private readonly inFlight = new Map<string, Promise<string>>();
  /** How many tokens this process fetched from providers (for tests and metrics). */
  fetched = 0;
  constructor(redis: Redis) {
    this.redis = redis;
  }

  private key(connector: string, account: string) {
    return `${config.redisPrefix}:token:${connector}:${account}`;
  }

  /** The account's token, from the cache or fetched now (by one caller; the others wait for it). */
  async get<C>(connector: string, account: string, flow: TokenFlow<C>, baseUrl: string, credentials: C): Promise<string> {
    const key = this.key(connector, account);
    const cached = await this.redis.get(key);
    if (cached) return cached;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetch(key, connector, flow, baseUrl, credentials).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** Forget a token the provider refused (its 401): the next get fetches a new one. */
  async invalidate(connector: string, account: string): Promise<void> {
    await this.redis.del(this.key(connector, account));
  }

  private async fetch<C>(key: string, connector: string, flow: TokenFlow<C>, baseUrl: string, credentials: C): Promise<string> {
    const lock = `${key}:lock`;
    const deadline = Date.now() + LOCK_MS;
    for (;;) {
      if (await this.redis.set(lock, String(process.pid), 'PX', LOCK_MS, 'NX')) break;
      // Another replica is fetching: its token appears under the key.
      await sleep(50);
      const token = await this.redis.get(key);
      if (token) return token;
      if (Date.now() > deadline) throw new ProviderUnavailable(`${connector}: waited too long for an access token`);
    }
    try {
      const again = await this.redis.get(key);
      if (again) return again;
      const res = await providerCall(baseUrl, flow.request(credentials), connector);
      const answer = flow.response(res);
      if ('kind' in answer) throw new TokenRefused(answer);
      this.fetched++;
      const ttl = Math.max(1_000, answer.expires_in_s * 1000 - EARLY_MS);
      await this.redis.set(key, answer.access_token, 'PX', ttl);
      return answer.access_token;
    } finally {
      await this.redis.del(lock);
    }
  }
}
