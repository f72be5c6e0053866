// Connector jobs on BullMQ: one queue per connector, jobId = operation id, so a job added twice runs once and a
// provider call is never duplicated by the queue. The job carries what the connector needs to call the provider.
// The provider's notifications go on the same queue (NotificationJob), with a job id derived from their content.
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { config } from '../lib/config.ts';
import type { ConnectorName } from '../lib/schemas/common.ts';
import { notificationJobId, type ConnectorJob, type NotificationJob } from '../domain/job.ts';
import { MANIFESTS } from '../workers/connectors/manifests.ts';
import { JobProducer } from './job-producer.ts';

export { telemetry } from './job-producer.ts';
export const queueName = (connector: ConnectorName) => `connector-${connector}`;

type QueuePolicy = NonNullable<(typeof MANIFESTS)[ConnectorName]>['queue'];

/** A connector's retry policy: its manifest's (workers/connectors/<name>/manifest.ts), else the service defaults. */
export const jobOptions = (connector?: ConnectorName, policy: QueuePolicy | undefined = connector && MANIFESTS[connector]?.queue) => ({
  attempts: policy?.attempts || config.jobAttempts,
  backoff: { type: 'exponential' as const, delay: policy?.backoff_ms || config.jobBackoffMs },
  removeOnComplete: { age: 24 * 3600, count: 100_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
});

/**
 * What a connector's worker runs with (workers/main.ts): its manifest's concurrency (else WORKER_CONCURRENCY) and the
 * provider's rate limit as BullMQ's `limiter` (at most `max` jobs per `duration` ms on the queue, across workers).
 */
export const workerOptions = (policy: QueuePolicy) => ({
  concurrency: policy.concurrency ?? config.workerConcurrency,
  ...(policy.limiter ? { limiter: policy.limiter } : {}),
});

/** The states of a job that has not yet read the provider. */
const NOT_YET_RUN = new Set(['delayed', 'waiting', 'prioritized', 'waiting-children']);

/** Producers for every connector's queue (adapters/job-producer.ts), created on first use, each with its connector's job options. */
export class ConnectorQueues {
  private readonly producers = new Map<ConnectorName, JobProducer<ConnectorJob | NotificationJob>>();
  private readonly connection: Redis;
  constructor(connection: Redis) {
    this.connection = connection;
  }

  private producer(connector: ConnectorName): JobProducer<ConnectorJob | NotificationJob> {
    let p = this.producers.get(connector);
    if (!p) {
      p = new JobProducer(queueName(connector), this.connection, () => jobOptions(connector));
      this.producers.set(connector, p);
    }
    return p;
  }

  /** The connector's queue itself (its counts, its jobs, its workers). */
  get(connector: ConnectorName): Queue {
    return this.producer(connector).queue;
  }

  async enqueue(job: ConnectorJob): Promise<void> {
    await this.producer(job.connector).add(job.kind, job, job.operation_id);
  }

  /**
   * A provider's notification for the connector's worker. The same notification added again adds nothing, except
   * that one whose job gave up (its attempts spent) is tried again: the provider's repeat is the retry.
   */
  async enqueueNotification(job: NotificationJob): Promise<void> {
    const producer = this.producer(job.connector);
    const jobId = notificationJobId(job);
    const existing = await producer.queue.getJob(jobId);
    if (existing && (await existing.isFailed())) return void (await existing.retry('failed'));
    await producer.add('notification', job, jobId);
  }

  /** A one-off status sync of an operation, beside its own job (which keeps the operation id as its job id). */
  async enqueueSync(job: ConnectorJob): Promise<void> {
    const sync: ConnectorJob = { ...job, mode: 'sync', once: true };
    await this.producer(job.connector).add(`${job.kind}-sync`, sync, `${job.operation_id}-sync-${Date.now()}`, { attempts: 2 });
  }

  /**
   * A status sync a provider's notification asks for: at most one pending per operation (so per payment's open
   * authorization), run NOTICE_SYNC_DELAY_MS later, and notices meanwhile are merged into it (the same job id adds
   * nothing). Removed once run, so a later notice may ask again. A flood of notices costs a few provider reads.
   * A notice merged into a sync that is already running (or just ran) may tell of what that sync read too early: one
   * more sync follows it, under an id of its own per run, so a flood during one run still adds one read.
   */
  async enqueueNoticeSync(job: ConnectorJob): Promise<void> {
    const sync: ConnectorJob = { ...job, mode: 'sync', once: true };
    const producer = this.producer(job.connector);
    const options = { attempts: 2, delay: config.noticeSyncDelayMs, removeOnComplete: true, removeOnFail: true };
    const id = `notice-sync-${job.operation_id}`;
    for (let tries = 0; tries < 2; tries++) {
      await producer.add(`${job.kind}-sync`, sync, id, options);
      const queued = await producer.queue.getJob(id);
      if (!queued) continue; // it ran and was removed meanwhile: ask again
      if (NOT_YET_RUN.has(await queued.getState())) return;
      await producer.add(`${job.kind}-sync`, sync, `${id}-after-${queued.processedOn ?? queued.timestamp}`, options);
      return;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.producers.values()].map((p) => p.close()));
  }
}
