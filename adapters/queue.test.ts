// A connector's queue policy (its manifest's `queue`) is what its worker and its jobs really run with: BullMQ's
// limiter and concurrency for the worker, attempts and backoff for each job; unset values take the service defaults.
import { describe, expect, it } from 'vitest';
import { config } from '../lib/config.ts';
import { jobOptions, workerOptions } from './queue.ts';

const none = { concurrency: null, limiter: null, attempts: null, backoff_ms: null, rate_limited_ms: 1_000 };

describe('queue policy', () => {
  it("the provider's rate limit is the worker's BullMQ limiter; its concurrency, else WORKER_CONCURRENCY", () => {
    expect(workerOptions({ ...none, concurrency: 3, limiter: { max: 5, duration: 1_000 } })).toEqual({ concurrency: 3, limiter: { max: 5, duration: 1_000 } });
    expect(workerOptions(none)).toEqual({ concurrency: config.workerConcurrency });
  });
  it('attempts and exponential backoff per job, else the service defaults', () => {
    expect(jobOptions('service_test', { ...none, attempts: 7, backoff_ms: 250 })).toMatchObject({ attempts: 7, backoff: { type: 'exponential', delay: 250 } });
    expect(jobOptions('service_test', none)).toMatchObject({ attempts: config.jobAttempts, backoff: { delay: config.jobBackoffMs } });
    // Read from the connector's manifest when not given.
    expect(jobOptions('service_test')).toMatchObject({ attempts: config.jobAttempts });
  });
});
