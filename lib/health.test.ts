// /health/live and /health/ready (lib/health.ts) against the real MongoDB and Redis, and against addresses where
// nothing answers: ready only while every dependency answers, 503 naming the ones that do not, 503 once draining.
import { createServer } from 'node:net';
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Health, mongoCheck, readiness, redisCheck, startHealthServer, closeHealthServer } from './health.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('readiness', () => {
  it('is ready when every check answers; names each one that fails, throws or hangs', async () => {
    expect(await readiness({ a: async () => true })).toEqual({ ready: true, checks: { a: 'up' }, not_ready: [] });
    const r = await readiness(
      {
        ok: async () => true,
        refused: async () => false,
        thrown: async () => {
          throw new Error('no');
        },
        hung: () => new Promise<boolean>(() => undefined),
      },
      200,
    );
    expect(r).toEqual({ ready: false, checks: { ok: 'up', refused: 'down', thrown: 'down', hung: 'down' }, not_ready: ['refused', 'thrown', 'hung'] });
  });
});

describe('the health server with real dependencies', () => {
  let mongo: MongoClient;
  let deadMongo: MongoClient;
  let redis: Redis;
  let deadRedis: Redis;
  beforeAll(async () => {
    mongo = await new MongoClient(process.env.MONGODB_URL || 'mongodb://127.0.0.1:27017/').connect();
    deadMongo = new MongoClient(`mongodb://127.0.0.1:${await freePort()}/`, { serverSelectionTimeoutMS: 300 });
    redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
    await redis.ping();
    deadRedis = new Redis(`redis://127.0.0.1:${await freePort()}`, { maxRetriesPerRequest: null, lazyConnect: true });
    deadRedis.on('error', () => undefined);
    deadRedis.connect().catch(() => undefined);
  });
  afterAll(async () => {
    await mongo.close();
    await deadMongo.close();
    redis.disconnect();
    deadRedis.disconnect();
  });

  it('answers live, ready (200) and, with Redis gone, 503 naming redis; 503 stopping once drained; 404 elsewhere', async () => {
    const port = await freePort();
    const up = new Health({ service: 'worker', instanceId: 'inst-1', checks: { mongodb: mongoCheck(mongo.db('admin')), redis: redisCheck(redis) } });
    const server = await startHealthServer(up, port);
    const base = `http://127.0.0.1:${port}`;
    try {
      const live = await fetch(`${base}/health/live`);
      expect(live.status).toBe(200);
      expect(await live.json()).toMatchObject({ status: 'live', service: 'worker', instance_id: 'inst-1' });
      const ready = await fetch(`${base}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', service: 'worker', instance_id: 'inst-1', checks: { mongodb: 'up', redis: 'up' } });
      expect((await fetch(`${base}/health`)).status).toBe(404);
      expect((await fetch(`${base}/health/ready`, { method: 'POST' })).status).toBe(405);
      up.drain();
      const drained = await fetch(`${base}/health/ready`);
      expect(drained.status).toBe(503);
      expect(await drained.json()).toMatchObject({ status: 'stopping' });
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
    } finally {
      await closeHealthServer(server);
    }

    const down = new Health({
      service: 'worker',
      timeoutMs: 1_000,
      checks: { mongodb: mongoCheck(deadMongo.db('admin')), redis: redisCheck(deadRedis), payment_state: async () => true },
    });
    const port2 = await freePort();
    const server2 = await startHealthServer(down, port2);
    try {
      const r = await fetch(`http://127.0.0.1:${port2}/health/ready`);
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({
        status: 'not_ready',
        service: 'worker',
        not_ready: ['mongodb', 'redis'],
        checks: { mongodb: 'down', redis: 'down', payment_state: 'up' },
      });
    } finally {
      await closeHealthServer(server2);
    }
  });

  it('serves the routes it is given beside the probes (GET /metrics), GET and HEAD only; other paths stay 404', async () => {
    const port = await freePort();
    const probes = new Health({ service: 'worker', checks: {} });
    const server = await startHealthServer(probes, port, {
      routes: { '/metrics': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('# metrics\n') },
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      const m = await fetch(`${base}/metrics?x=1`);
      expect(m.status).toBe(200);
      expect(await m.text()).toBe('# metrics\n');
      expect((await fetch(`${base}/metrics`, { method: 'HEAD' })).status).toBe(200);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
      expect((await fetch(`${base}/metrics/x`)).status).toBe(404);
      expect((await fetch(`${base}/toString`)).status).toBe(404);
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
    } finally {
      await closeHealthServer(server);
    }
  });

  it('starts no server for port 0', async () => {
    expect(await startHealthServer(new Health({ service: 'x', checks: {} }), 0)).toBeUndefined();
  });
});
