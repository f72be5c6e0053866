// Connector jobs on BullMQ: one queue per connector, jobId = operation id, so a job added twice runs once and a
// provider call is never duplicated by the queue. The job carries what the connector needs to call the provider.
import { Queue } from 'bullmq';
import { BullMQOtel } from 'bullmq-otel';
import type { Redis } from 'ioredis';
import { config } from './config.ts';
import type { ConnectorName } from './schemas/common.ts';
import type { OperationKind, ThreeDsRecord } from '../services/payment-state/state-machine.ts';

export interface ConnectorJob {
  merchant_id: string;
  payment_id: string;
  operation_id: string;
  kind: OperationKind;
  connector: ConnectorName;
  /** The merchant's connector account whose credentials the call uses; null: the sandbox default. */
  merchant_connector_id?: string | null;
  amount: number;
  currency: string;
  capture_method: string;
  /** The reference the provider knows the payment by (set after authorization). */
  connector_transaction_id: string | null;
  /** Where the sandbox reads magic values: customer.email, else email, else billing.email. */
  customer_email: string | null;
  return_url: string | null;
  merchant_order_reference_id: string | null;
  /** 'execute' calls the provider's operation; 'sync' asks the provider how an earlier call ended. */
  mode: 'execute' | 'sync';
  sync_round: number;
  /** A one-off status sync (force_sync): report what the provider says and stop, whatever it says. */
  once?: boolean;
  /**
   * For an authenticate operation: what the customer's device sent for the 3DS server. The 3DS server's
   * transaction id, once known, is the job's connector_transaction_id (for status syncs).
   */
  authentication?: ThreeDsRecord['request'] & { authentication_id: string };
}

export const queueName = (connector: ConnectorName) => `connector-${connector}`;
export const telemetry = () => new BullMQOtel({ tracerName: 'bnpl-bullmq' });

export const jobOptions = () => ({
  attempts: config.jobAttempts,
  backoff: { type: 'exponential' as const, delay: config.jobBackoffMs },
  removeOnComplete: { age: 24 * 3600, count: 100_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
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
    await this.get(job.connector).add(job.kind, job, { ...jobOptions(), jobId: job.operation_id });
  }

  /** A one-off status sync of an operation, beside its own job (which keeps the operation id as its job id). */
  async enqueueSync(job: ConnectorJob): Promise<void> {
    const sync: ConnectorJob = { ...job, mode: 'sync', once: true };
    await this.get(job.connector).add(`${job.kind}-sync`, sync, { ...jobOptions(), attempts: 2, jobId: `${job.operation_id}-sync-${Date.now()}` });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
