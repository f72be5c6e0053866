// service_test's notifications (the sandbox sends them, signed; the gateway verifies and records them): an envelope
// {id: "evt_…", type, created_at, data} whose data is the object exactly as the provider's GET answers it.
//   payment.updated                   data: the payment (GET /service_test/v1/payments/:id)
//   refund.updated                    data: the refund (GET /service_test/v1/refunds/:id); reference = our refund_id
//   dispute.created, dispute.updated  data: the dispute (GET /service_test/v1/disputes/:id)
import { z } from 'zod';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import { readBody, readPart, unreadable } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { unifiedFor } from './errors.ts';
import { paymentOutcome } from './response.ts';

const Envelope = z.object({ id: z.string(), type: z.string(), created_at: z.string().optional(), data: z.unknown() });

const Dated = z.object({ id: z.string().min(1), created_at: z.string().optional(), updated_at: z.string().optional() });
const NotifiedPayment = Dated;
const NotifiedRefund = Dated.extend({
  payment_id: z.string().min(1),
  reference: z.string().nullish(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  failure: z.object({ code: z.string(), message: z.string() }).nullish(),
});
const NotifiedDispute = Dated.extend({
  payment_id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  reason: z.string().nullish(),
  reason_code: z.string().nullish(),
  stage: z.enum(['pre_dispute', 'dispute', 'pre_arbitration']),
  status: z.enum(['opened', 'expired', 'accepted', 'cancelled', 'challenged', 'won', 'lost']),
  challenge_required_by: z.string().nullish(),
});

const REFUND_STATUS: Record<z.infer<typeof NotifiedRefund>['status'], OutcomeKind> = { succeeded: 'REFUNDED', pending: 'PENDING', failed: 'FAILED' };

function refundOutcomeOf(r: z.infer<typeof NotifiedRefund>): Outcome {
  const kind = REFUND_STATUS[r.status];
  const failure = kind === 'FAILED' ? (r.failure ?? { code: 'refund_failed', message: 'The provider failed the refund' }) : null;
  return {
    kind,
    connector_transaction_id: r.id,
    ...(failure ? { error_code: failure.code, error_message: failure.message, ...unifiedFor(failure.code) } : {}),
  };
}

const unknown = unreadable;

/** The provider's clock for the object: its updated_at, else when the event was made. */
const updatedAt = (o: { updated_at?: string; created_at?: string }, env: z.infer<typeof Envelope>) => o.updated_at ?? env.created_at ?? o.created_at ?? '';

export function parseNotification(rawBody: string): ProviderNotification {
  const env = readBody(rawBody, Envelope, 'a service_test event');
  if (!('data' in env)) return env;
  const e = env.data;
  const shape = <T>(schema: z.ZodType<T>) => readPart(e.data, schema, `the object of ${e.type} ${e.id}`);
  switch (e.type) {
    case 'payment.updated': {
      const read = shape(NotifiedPayment);
      if (!('data' in read)) return read;
      const p = read.data;
      let outcome: Outcome;
      try {
        outcome = paymentOutcome({ status: 200, body: e.data });
      } catch (err) {
        return unknown(`${e.type} ${e.id}: ${err instanceof Error ? err.message : String(err)}`);
      }
      return { object: 'payment', connector_transaction_id: p.id, object_id: p.id, provider_updated_at: updatedAt(p, e), outcome };
    }
    case 'refund.updated': {
      const read = shape(NotifiedRefund);
      if (!('data' in read)) return read;
      const r = read.data;
      return {
        object: 'refund',
        connector_transaction_id: r.payment_id,
        object_id: r.id,
        provider_updated_at: updatedAt(r, e),
        refund_reference: r.reference ?? null,
        connector_refund_id: r.id,
        outcome: refundOutcomeOf(r),
      };
    }
    case 'dispute.created':
    case 'dispute.updated': {
      const read = shape(NotifiedDispute);
      if (!('data' in read)) return read;
      const d = read.data;
      return {
        object: 'dispute',
        connector_transaction_id: d.payment_id,
        object_id: d.id,
        provider_updated_at: updatedAt(d, e),
        dispute: {
          connector_dispute_id: d.id,
          amount: d.amount,
          currency: d.currency,
          dispute_stage: d.stage,
          dispute_status: `dispute_${d.status}`,
          connector_status: d.status,
          connector_reason: d.reason ?? '',
          connector_reason_code: d.reason_code ?? '',
          challenge_required_by: d.challenge_required_by ?? '',
          connector_created_at: d.created_at ?? '',
          connector_updated_at: d.updated_at ?? '',
        },
      };
    }
    default:
      return unknown(`event type ${e.type} (${e.id}) is not one we act on`);
  }
}
