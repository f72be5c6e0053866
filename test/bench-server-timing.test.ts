// The bench reports the distribution of each Server-Timing metric and the share of time per process (issue 24).
import { describe, expect, it } from 'vitest';
import { parseServerTiming, timeShares, timingDistribution } from '../bench/measure.ts';

describe("the bench's reading of Server-Timing", () => {
  it('reads each metric with a duration, summing repeats', () => {
    expect(parseServerTiming('total;dur=10.5;desc="a", provider;dur=4, provider;dur=1, cache;desc="hit"')).toEqual({ total: 10.5, provider: 5 });
    expect(parseServerTiming(undefined)).toEqual({});
  });

  it('gives p50 and p95 of each metric, or null without answers', () => {
    const d = timingDistribution({ total: [1, 2, 3, 4, 100], provider: [1] });
    expect(d?.total).toMatchObject({ p50: 3, p95: 100 });
    expect(d?.provider).toMatchObject({ p50: 1, p95: 1 });
    expect(timingDistribution(undefined)).toBeNull();
    expect(timingDistribution({})).toBeNull();
  });

  it('shares the summed total between provider, payment-state, queue and the rest', () => {
    const shares = timeShares({ total: [60, 40], provider: [30, 20], 'payment-state': [5, 5], queue: [2, 8] });
    expect(shares).toEqual({ provider: 0.5, 'payment-state': 0.1, queue: 0.1, 'gateway, worker and outcome report': 0.3 });
    expect(timeShares({ provider: [1] })).toBeNull();
  });
});
