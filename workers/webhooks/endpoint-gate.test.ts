// The per-endpoint cap and circuit breaker against the real Redis (a prefix of this test's own).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { EndpointGate, endpointOf } from './endpoint-gate.ts';

const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
const prefix = `gate-test-${randomUUID()}`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});
const gate = new EndpointGate(redis, { prefix, cap: 2, failures: 3, cooldownMs: 1_000, leaseMs: 5_000, waitMs: 2_000 });

describe('EndpointGate', () => {
  it('an endpoint is a URL origin', () => {
    expect(endpointOf('https://Shop.example.com:443/a?b')).toBe('https://shop.example.com');
    expect(endpointOf('http://127.0.0.1:4242/hooks/x')).toBe('http://127.0.0.1:4242');
  });
  it('caps attempts in flight per endpoint; a finished attempt wakes the first waiting job; other endpoints are not held', async () => {
    const t = 1_000_000;
    expect(await gate.admit('https://slow', 'a', t)).toEqual({ go: true, probe: false });
    expect(await gate.admit('https://slow', 'b', t)).toEqual({ go: true, probe: false });
    expect(await gate.admit('https://slow', 'c', t)).toEqual({ go: false, untilMs: t + 2_000, reason: 'endpoint_busy' });
    expect(await gate.admit('https://slow', 'd', t)).toMatchObject({ go: false });
    expect(await gate.admit('https://healthy', 'h', t)).toEqual({ go: true, probe: false });
    expect(await gate.release('https://slow', 'a', true, t + 10)).toEqual({ pausedForMs: 0, wake: ['c'] });
    expect(await gate.admit('https://slow', 'c', t + 20)).toEqual({ go: true, probe: false });
    // A slot whose worker died frees itself when its lease ends.
    expect(await gate.admit('https://slow', 'e', t + 5_030)).toEqual({ go: true, probe: false });
  });
  it('pauses an endpoint after failures in a row, lets one probe through, doubles the pause when it fails, closes on success', async () => {
    const t = 2_000_000;
    const ep = 'https://down';
    for (const m of ['a', 'b']) expect((await gate.admit(ep, m, t)).go).toBe(true);
    expect((await gate.release(ep, 'a', false, t + 1)).pausedForMs).toBe(0);
    expect((await gate.release(ep, 'b', false, t + 2)).pausedForMs).toBe(0);
    expect((await gate.admit(ep, 'c', t + 3)).go).toBe(true);
    expect(await gate.release(ep, 'c', false, t + 4)).toEqual({ pausedForMs: 1_000, wake: [] });
    expect(await gate.admit(ep, 'd', t + 5)).toEqual({ go: false, untilMs: t + 1_004, reason: 'endpoint_paused' });
    // After the pause: one probe; the others wait for its outcome.
    expect(await gate.admit(ep, 'd', t + 1_010)).toEqual({ go: true, probe: true });
    expect(await gate.admit(ep, 'e', t + 1_011)).toMatchObject({ go: false, reason: 'endpoint_paused' });
    expect(await gate.release(ep, 'd', false, t + 1_020)).toEqual({ pausedForMs: 2_000, wake: [] });
    expect(await gate.admit(ep, 'e', t + 1_030)).toEqual({ go: false, untilMs: t + 3_020, reason: 'endpoint_paused' });
    expect(await gate.admit(ep, 'e', t + 3_020)).toEqual({ go: true, probe: true });
    expect(await gate.admit(ep, 'f', t + 3_021)).toMatchObject({ go: false });
    // The probe delivered: the endpoint is open again and the waiting jobs are woken (up to the cap).
    expect(await gate.release(ep, 'e', true, t + 3_030)).toEqual({ pausedForMs: 0, wake: ['f'] });
    expect(await gate.admit(ep, 'f', t + 3_040)).toEqual({ go: true, probe: false });
  });
});
