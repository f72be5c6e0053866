// The one job producer (issue 24): every job the service queues, a connector's (adapters/queue.ts) or a merchant
// webhook's delivery (adapters/event-store.ts), is added here, on a BullMQ queue under the service's Redis prefix, with
// the trace context carried in the job (BullMQ's telemetry), its queue's job options (a connector's from its
// definition, the webhook queue's own) under the call's, and always a jobId: a job added twice with one id runs once.
import { Queue, type Job, type JobsOptions } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';
import type { Redis } from 'ioredis';
import { config } from '../lib/config.ts';

export const telemetry = () => new BullMQOtel({ tracerName: 'bnpl-bullmq' });

export class JobProducer<T extends object> {
  readonly queue: Queue<T>;
  private readonly defaults: () => JobsOptions;

  /** `defaults`: the queue's job options, read at each add (the configuration may be set after the producer is made). */
  constructor(name: string, connection: Redis, defaults: () => JobsOptions) {
    this.queue = new Queue<T>(name, { connection, prefix: config.redisPrefix, telemetry: telemetry() });
    this.defaults = defaults;
  }

  /** Adds a job (`options` over the queue's defaults); the same jobId adds nothing while that job is kept. */
  add(name: string, data: T, jobId: string, options: JobsOptions = {}): Promise<Job<T>> {
    return this.queue.add(name as never, data as never, { ...this.defaults(), ...options, jobId }) as Promise<Job<T>>;
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
