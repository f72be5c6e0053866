// The one job producer against the real Redis: the queue's options under the call's, the jobId that makes a second
// add a no-op, and the service's key prefix; ConnectorQueues and WebhookQueue add through it with their own options.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { config } from '../lib/config.ts';
import { redisConnection } from '../lib/redis.ts';
import { JobProducer } from './job-producer.ts';
import { ConnectorQueues, jobOptions, queueName } from './queue.ts';
import { WebhookQueue, webhookJobOptions } from './event-store.ts';
import type { ConnectorJob } from '../domain/job.ts';

// A prefix of its own (set before lib/config.ts is read): no worker of a running stack sees these jobs.
vi.hoisted(() => {
  process.env.REDIS_PREFIX = `bnpl-unit-${Math.random().toString(36).slice(2, 10)}`;
  process.env.NOTICE_SYNC_DELAY_MS = '100';
});

const redis = redisConnection();
afterAll(async () => {
  const keys = await redis.keys(`${config.redisPrefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

describe('JobProducer', () => {
  it("adds with the queue's options, the call's over them, and the jobId; the same id again adds nothing", async () => {
    const name = `producer-test-${randomBytes(4).toString('hex')}`;
    const p = new JobProducer<{ n: number }>(name, redis, () => ({ attempts: 4, backoff: { type: 'exponential', delay: 50 }, removeOnComplete: 10 }));
    const a = await p.add('one', { n: 1 }, 'job-1', { attempts: 2 });
    const again = await p.add('one', { n: 2 }, 'job-1');
    expect(a.id).toBe('job-1');
    expect(again.id).toBe('job-1');
    expect(await p.queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    const stored = await p.queue.getJob('job-1');
    expect(stored?.data).toEqual({ n: 1 });
    expect(stored?.opts).toMatchObject({ attempts: 2, backoff: { type: 'exponential', delay: 50 }, removeOnComplete: 10 });
    // Under the service's prefix, where its workers read.
    expect(config.redisPrefix).toMatch(/^bnpl-unit-/);
    expect(await redis.exists(`${config.redisPrefix}:${name}:job-1`)).toBe(1);
    await p.close();
  });

  it("a connector's job carries its definition's job options; the webhook queue's its own", async () => {
    const queues = new ConnectorQueues(redis);
    const webhooks = new WebhookQueue(redis);
    const job = { connector: 'service_test', kind: 'authorize', operation_id: `op_${randomBytes(13).toString('hex')}` } as ConnectorJob;
    await queues.enqueue(job);
    const eventId = `evt_${randomBytes(8).toString('hex')}`;
    await webhooks.enqueue({ event_id: eventId, merchant_id: 'm1' });
    const connectorJob = await queues.get('service_test').getJob(job.operation_id);
    const { attempts, backoff } = jobOptions('service_test');
    expect(connectorJob?.opts).toMatchObject({ attempts, backoff, jobId: job.operation_id });
    const delivery = await webhooks.queue.getJob(eventId);
    expect(delivery?.opts).toMatchObject({ attempts: webhookJobOptions().attempts, backoff: { type: 'webhook' }, jobId: eventId });
    await queues.close();
    await webhooks.close();
  });

  it("a provider's notices ask for one status sync at a time, and one more after a sync that was already running", async () => {
    const queues = new ConnectorQueues(redis);
    const queue = queues.get('service_test');
    const job = { connector: 'service_test', kind: 'refund', operation_id: `op_${randomBytes(13).toString('hex')}` } as ConnectorJob;
    const mine = async () => (await queue.getJobs(['delayed', 'waiting', 'active'])).filter((j) => j.data.operation_id === job.operation_id);
    await queues.enqueueNoticeSync(job);
    await queues.enqueueNoticeSync(job);
    expect((await mine()).map((j) => j.id)).toEqual([`notice-sync-${job.operation_id}`]);

    // A worker takes the sync and holds it, as if its read of the provider were under way.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const connection = redis.duplicate();
    const worker = new Worker(
      queueName('service_test'),
      async (j) => {
        if (j.data.operation_id !== job.operation_id) return; // another test's job
        ran.push(String(j.id));
        if (ran.length === 1) await held;
      },
      { connection, prefix: config.redisPrefix },
    );
    try {
      await vi.waitFor(() => expect(ran).toHaveLength(1), { timeout: 15_000 });
      await queues.enqueueNoticeSync(job);
      await queues.enqueueNoticeSync(job);
      const after = (await mine()).filter((j) => j.id !== ran[0]);
      expect(after.map((j) => j.id)).toEqual([expect.stringMatching(new RegExp(`^notice-sync-${job.operation_id}-after-\\d+$`))]);
      release();
      await vi.waitFor(() => expect(ran).toHaveLength(2), { timeout: 15_000 });
      expect(ran[1]).toBe(after[0]?.id);
    } finally {
      release();
      await worker.close();
      connection.disconnect();
    }
    await queues.close();
  });
});
