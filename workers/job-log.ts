// Issue 23: what every worker log line about a connector job says, so an operator can follow one payment: the payment,
// the operation, its kind and connector, and wherever the job ends the outcome and its reason (error code and message).
import type { Job } from 'bullmq';
import type { ConnectorJob } from '../domain/job.ts';
import type { Outcome } from '../domain/payment.ts';

type JobData = Partial<Pick<ConnectorJob, 'merchant_id' | 'payment_id' | 'operation_id' | 'kind' | 'connector' | 'mode' | 'sync_round'>>;

/** The job's identity: payment, operation, kind, connector (and the merchant: an id, not personal data). */
export function jobFields(data: JobData | undefined | null): Record<string, unknown> {
  return {
    payment_id: data?.payment_id ?? null,
    operation_id: data?.operation_id ?? null,
    kind: data?.kind ?? null,
    connector: data?.connector ?? null,
    merchant_id: data?.merchant_id ?? null,
    ...(data?.mode === 'sync' ? { mode: 'sync', sync_round: data.sync_round ?? null } : {}),
  };
}

/** An outcome as the log names it: its kind and, when it is not a success, the reason the provider gave. */
export function outcomeFields(outcome: Pick<Outcome, 'kind' | 'error_code' | 'error_message' | 'unified_code' | 'unified_message'>): Record<string, unknown> {
  const reason =
    outcome.error_code || outcome.error_message || outcome.unified_code
      ? {
          error_code: outcome.error_code ?? null,
          error_message: outcome.error_message ?? null,
          unified_code: outcome.unified_code ?? null,
          unified_message: outcome.unified_message ?? null,
        }
      : {};
  return { outcome: outcome.kind, ...reason };
}

/** Why a job attempt threw: the error's name, code when it has one, and message. */
export function failureFields(err: unknown): Record<string, unknown> {
  const e = err as { name?: unknown; code?: unknown; message?: unknown } | null;
  return {
    error_name: typeof e?.name === 'string' ? e.name : null,
    error_code: typeof e?.code === 'string' || typeof e?.code === 'number' ? e.code : null,
    error_message: typeof e?.message === 'string' ? e.message : String(err),
  };
}

/** The line for a job BullMQ marked failed (an attempt threw): the job's identity, the reason, and whether it retries. */
export function failedJobFields(job: Pick<Job, 'data' | 'id' | 'attemptsMade' | 'opts'> | undefined, err: unknown): Record<string, unknown> {
  const attempts = job?.opts?.attempts ?? 1;
  const data = job?.data as JobData | undefined;
  return {
    ...jobFields(data),
    operation_id: data?.operation_id ?? job?.id ?? null,
    attempts_made: job?.attemptsMade ?? null,
    final: job ? job.attemptsMade >= attempts : null,
    ...failureFields(err),
  };
}
