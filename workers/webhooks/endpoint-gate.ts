// Fair deliveries per endpoint (an endpoint is a webhook URL's origin): at most `cap` attempts in flight to one endpoint
// across every webhook worker, and a circuit breaker that pauses an endpoint after `failures` failed attempts in a row
// (timeouts, refusals, non-2xx) for a cooldown, then lets one probe through: delivered closes it, failed pauses it again
// for twice as long (up to MAX_COOLDOWN_MS). The state is in Redis (so replicas share it), changed by Lua scripts (each
// decision atomic):
//   {prefix}:webhook-endpoint:{origin}:inflight  sorted set of job ids in flight, scored by their lease's end (a killed
//                                                worker's slot frees itself)
//   {prefix}:webhook-endpoint:{origin}:waiting   job ids told to wait for a slot, first come first served
//   {prefix}:webhook-endpoint:{origin}:breaker   hash {failures, opens, open_until, probe, probe_until}
// A job told to wait does not hold a worker slot: the caller moves it to delayed (BullMQ) and a finishing attempt promotes
// the next waiting ones; the delay is only the safety net for a lost promotion.
import type { Redis } from 'ioredis';

export const MAX_COOLDOWN_MS = 10 * 60_000;

export type Admission = { go: true; probe: boolean } | { go: false; untilMs: number; reason: 'endpoint_busy' | 'endpoint_paused' };

export interface GateOptions {
  prefix: string;
  /** Attempts in flight per endpoint; 0: no cap. */
  cap: number;
  /** Failed attempts in a row that pause the endpoint; 0: never paused. */
  failures: number;
  cooldownMs: number;
  /** How long one attempt may hold its slot (the attempt's timeout and some). */
  leaseMs: number;
  /** How long a job told to wait sleeps if no finishing attempt wakes it. */
  waitMs: number;
}

// KEYS: inflight, waiting, breaker. ARGV: now, member, cap, leaseMs, waitMs.
// Returns {1, 0} go, {2, 0} go as the probe, {0, until, 'busy'|'paused'} wait.
const ADMIT = `
local now = tonumber(ARGV[1])
local member = ARGV[2]
local cap = tonumber(ARGV[3])
local lease = tonumber(ARGV[4])
local wait = tonumber(ARGV[5])
local function queue()
  redis.call('LREM', KEYS[2], 0, member)
  redis.call('RPUSH', KEYS[2], member)
  redis.call('PEXPIRE', KEYS[2], 86400000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local openUntil = tonumber(redis.call('HGET', KEYS[3], 'open_until') or '0')
if openUntil > 0 then
  if now < openUntil then return {0, openUntil, 'paused'} end
  local probeUntil = tonumber(redis.call('HGET', KEYS[3], 'probe_until') or '0')
  if probeUntil > now and redis.call('HGET', KEYS[3], 'probe') ~= member then
    queue()
    return {0, math.min(probeUntil, now + wait), 'paused'}
  end
  redis.call('HSET', KEYS[3], 'probe', member, 'probe_until', now + lease)
  redis.call('LREM', KEYS[2], 0, member)
  redis.call('ZADD', KEYS[1], now + lease, member)
  redis.call('PEXPIRE', KEYS[1], lease)
  return {2, 0}
end
if cap <= 0 or redis.call('ZSCORE', KEYS[1], member) or redis.call('ZCARD', KEYS[1]) < cap then
  redis.call('LREM', KEYS[2], 0, member)
  redis.call('ZADD', KEYS[1], now + lease, member)
  redis.call('PEXPIRE', KEYS[1], lease)
  return {1, 0}
end
queue()
return {0, now + wait, 'busy'}
`;

// KEYS: inflight, waiting, breaker. ARGV: now, member, delivered (1/0), failures, cooldownMs, maxCooldownMs, cap.
// Returns {pausedForMs (0: not paused now), waiting job ids to wake...}.
const RELEASE = `
local now = tonumber(ARGV[1])
local member = ARGV[2]
local threshold = tonumber(ARGV[4])
local cap = tonumber(ARGV[7])
redis.call('ZREM', KEYS[1], member)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local paused = 0
if ARGV[3] == '1' then
  redis.call('DEL', KEYS[3])
else
  local isProbe = redis.call('HGET', KEYS[3], 'probe') == member
  local fails = redis.call('HINCRBY', KEYS[3], 'failures', 1)
  local openUntil = tonumber(redis.call('HGET', KEYS[3], 'open_until') or '0')
  if threshold > 0 and (isProbe or (openUntil == 0 and fails >= threshold)) then
    local opens = redis.call('HINCRBY', KEYS[3], 'opens', 1)
    paused = math.floor(math.min(tonumber(ARGV[5]) * 2 ^ (opens - 1), tonumber(ARGV[6])))
    redis.call('HSET', KEYS[3], 'open_until', now + paused)
    redis.call('HDEL', KEYS[3], 'probe', 'probe_until')
  end
  redis.call('PEXPIRE', KEYS[3], 86400000)
end
local out = {paused}
if tonumber(redis.call('HGET', KEYS[3], 'open_until') or '0') > 0 then return out end
local free = 1000
if cap > 0 then free = cap - redis.call('ZCARD', KEYS[1]) end
for i = 1, free do
  local w = redis.call('LPOP', KEYS[2])
  if not w then break end
  out[#out + 1] = w
end
return out
`;

/** The endpoint a URL delivers to: its origin (scheme, host, port). */
export function endpointOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export class EndpointGate {
  private readonly redis: Redis;
  private readonly o: GateOptions;
  constructor(redis: Redis, options: GateOptions) {
    this.redis = redis;
    this.o = options;
  }

  private keys(endpoint: string): string[] {
    const base = `${this.o.prefix}:webhook-endpoint:${endpoint}`;
    return [`${base}:inflight`, `${base}:waiting`, `${base}:breaker`];
  }

  /** May `member` (a job id) attempt a delivery to `endpoint` now? If so it holds a slot until release(). */
  async admit(endpoint: string, member: string, now = Date.now()): Promise<Admission> {
    const r = await this.redis.eval(ADMIT, 3, ...this.keys(endpoint), now, member, this.o.cap, this.o.leaseMs, this.o.waitMs);
    const [code, until, reason] = Array.isArray(r) ? r : [];
    if (code === 1 || code === 2) return { go: true, probe: code === 2 };
    return { go: false, untilMs: Number(until), reason: reason === 'paused' ? 'endpoint_paused' : 'endpoint_busy' };
  }

  /**
   * The attempt of `member` is over: frees its slot and records the outcome. Returns how long the endpoint is now paused
   * (0: not paused by this attempt) and the waiting jobs to wake (as many as there are free slots, none while paused).
   */
  async release(endpoint: string, member: string, delivered: boolean, now = Date.now()): Promise<{ pausedForMs: number; wake: string[] }> {
    const r = await this.redis.eval(
      RELEASE,
      3,
      ...this.keys(endpoint),
      now,
      member,
      delivered ? 1 : 0,
      this.o.failures,
      this.o.cooldownMs,
      Math.max(MAX_COOLDOWN_MS, this.o.cooldownMs),
      this.o.cap,
    );
    const [paused, ...wake] = Array.isArray(r) ? r : [0];
    return { pausedForMs: Number(paused), wake: wake.map(String) };
  }
}
