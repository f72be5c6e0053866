// Connector jobs on BullMQ: one queue per connector, jobId = operation id, so a job added twice runs once and a
// provider call is never duplicated by the queue. The job carries what the connector needs to call the provider.
// The provider's notifications go on the same queue (NotificationJob), with a job id derived from their content.
import { Queue } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';
import type { Redis } from 'ioredis';
import { config } from '../lib/config.ts';
import type { ConnectorName } from '../lib/schemas/common.ts';
import { notificationJobId, type ConnectorJob, type NotificationJob } from '../domain/job.ts';
import { MANIFESTS } from '../workers/connectors/manifests.ts';

export const queueName = (connector: ConnectorName) => `connector-${connector}`;
export const telemetry = () => new BullMQOtel({ tracerName: 'bnpl-bullmq' });

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

/** Producers for every connector's queue, created on first use. */
export class ConnectorQueues {
  private readonly queues = new Map<ConnectorName, Queue>();
  private readonly connection: Redis;
  constructor(connection: Redis) {
    this.connection = connection;
  }

  get(connector: ConnectorName): Queue {
    let q = this.queues.get(connector);
    if (!q) {
      q = new Queue(queueName(connector), { connection: this.connection, prefix: config.redisPrefix, telemetry: telemetry() });
      this.queues.set(connector, q);
    }
    return q;
  }

  async enqueue(job: ConnectorJob): Promise<void> {
    await this.get(job.connector).add(job.kind, job, { ...jobOptions(job.connector), jobId: job.operation_id });
  }

  /**
   * A provider's notification for the connector's worker. The same notification added again adds nothing, except
   * that one whose job gave up (its attempts spent) is tried again: the provider's repeat is the retry.
   */
  async enqueueNotification(job: NotificationJob): Promise<void> {
    const q = this.get(job.connector);
    const jobId = notificationJobId(job);
    const existing = await q.getJob(jobId);
    if (existing && (await existing.isFailed())) return void (await existing.retry('failed'));
    await q.add('notification', job, { ...jobOptions(job.connector), jobId });
  }

  /** A one-off status sync of an operation, beside its own job (which keeps the operation id as its job id). */
  async enqueueSync(job: ConnectorJob): Promise<void> {
    const sync: ConnectorJob = { ...job, mode: 'sync', once: true };
    await this.get(job.connector).add(`${job.kind}-sync`, sync, { ...jobOptions(job.connector), attempts: 2, jobId: `${job.operation_id}-sync-${Date.now()}` });
  }

  /**
   * A status sync a provider's notification asks for: at most one pending per operation (so per payment's open
   * authorization), run NOTICE_SYNC_DELAY_MS later, and notices meanwhile are merged into it (the same job id adds
   * nothing). Removed once run, so a later notice may ask again. A flood of notices costs a few provider reads.
   */
  async enqueueNoticeSync(job: ConnectorJob): Promise<void> {
    const sync: ConnectorJob = { ...job, mode: 'sync', once: true };
    await this.get(job.connector).add(`${job.kind}-sync`, sync, {
      ...jobOptions(job.connector),
      attempts: 2,
      delay: config.noticeSyncDelayMs,
      jobId: `notice-sync-${job.operation_id}`,
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
