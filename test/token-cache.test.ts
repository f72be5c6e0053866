// Access tokens (issue 12): one fetch from the provider serves every job that needs the token at once, across worker
// replicas (two caches on one Redis here), until shortly before it expires; a 401 makes the next job fetch a new one;
// refused credentials become the job's outcome. Real Redis, a real HTTP token endpoint.
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCache, TokenRefused } from '../workers/token-cache.ts';
import type { TokenFlow } from '../workers/connectors/types.ts';
import { config } from '../lib/config.ts';

let server: Server;
let baseUrl: string;
let hits = 0;
const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
const account = `test-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits++;
      const form = new URLSearchParams(body);
      // The provider takes a moment, so that concurrent jobs really overlap.
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        if (form.get('client_secret') !== 'right') return res.writeHead(401).end(JSON.stringify({ error: 'invalid_client' }));
        res.end(JSON.stringify({ access_token: `tok_${hits}`, token_type: 'Bearer', expires_in: 3600 }));
      }, 100);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await redis.del(`${config.redisPrefix}:token:oauthtest:${account}`, `${config.redisPrefix}:token:oauthtest:${account}-bad`);
  redis.disconnect();
  server.close();
});

const flow: TokenFlow<{ id: string; secret: string }> = {
  request: (c) => ({ method: 'POST', path: '/oauth/token', form: { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret } }),
  response: (res) => {
    const b = res.body as { access_token?: string; expires_in?: number; error?: string };
    if (res.status !== 200 || !b.access_token) return { kind: 'FAILED', error_code: b.error ?? `http_${res.status}`, error_message: 'token refused' };
    return { access_token: b.access_token, expires_in_s: b.expires_in ?? 3600 };
  },
};

describe('TokenCache', () => {
  it('50 concurrent jobs on two replicas: one fetch, one token for all', async () => {
    const replicas = [new TokenCache(redis), new TokenCache(redis)];
    const tokens = await Promise.all(
      Array.from({ length: 50 }, (_, i) => replicas[i % 2]!.get('oauthtest', account, flow, baseUrl, { id: 'c', secret: 'right' })),
    );
    expect(hits).toBe(1);
    expect(new Set(tokens)).toEqual(new Set(['tok_1']));
    expect(replicas[0]!.fetched + replicas[1]!.fetched).toBe(1);
    // Cached until shortly before it expires (expires_in 3600 s, refreshed a minute early).
    const ttl = await redis.pttl(`${config.redisPrefix}:token:oauthtest:${account}`);
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_540_000);
  });

  it('after a 401 the token is forgotten and the next job fetches a new one', async () => {
    const cache = new TokenCache(redis);
    await cache.invalidate('oauthtest', account);
    const again = await Promise.all(Array.from({ length: 10 }, () => cache.get('oauthtest', account, flow, baseUrl, { id: 'c', secret: 'right' })));
    expect(hits).toBe(2);
    expect(new Set(again)).toEqual(new Set(['tok_2']));
  });

  it("refused credentials: the provider's answer as an outcome, nothing cached", async () => {
    const cache = new TokenCache(redis);
    const err = await cache.get('oauthtest', `${account}-bad`, flow, baseUrl, { id: 'c', secret: 'wrong' }).catch((e) => e);
    expect(err).toBeInstanceOf(TokenRefused);
    expect((err as TokenRefused).outcome).toMatchObject({ kind: 'FAILED', error_code: 'invalid_client' });
    expect(await redis.exists(`${config.redisPrefix}:token:oauthtest:${account}-bad`)).toBe(0);
  });
});
