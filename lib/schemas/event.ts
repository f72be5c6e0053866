// Merchant events (issue 14): the event types, GET /events/{merchant_id}'s query and the resources the Events API
// answers. domain/events.ts decides which transition gives which event.
import { z } from 'zod';
import { DISPUTE_STATUSES, Dispute } from './dispute.ts';
import { MandateResource } from './mandate.ts';
import { Payment } from './payment.ts';
import { Refund } from './refund.ts';
import { MAX_LIST_OFFSET, rangesInOrder } from './list-limits.ts';
import { Timestamp, str } from './common.ts';

/** Every event type: the reference switch's, plus ours (partial capture, refused capture or void, incremental authorization). */
export const EVENT_TYPE_NAMES = [
  'payment_succeeded',
  'payment_failed',
  'payment_processing',
  'payment_cancelled',
  'payment_authorized',
  'payment_captured',
  'action_required',
  'payment_partially_captured',
  'payment_capture_failed',
  'payment_cancel_failed',
  'payment_incremental_authorization',
  'refund_succeeded',
  'refund_failed',
  ...DISPUTE_STATUSES,
  'mandate_active',
  'mandate_revoked',
] as const;
export type EventTypeName = (typeof EVENT_TYPE_NAMES)[number];
export const EventTypeEnum = z.enum(EVENT_TYPE_NAMES);
export const EVENT_OBJECT_TYPES = ['payment_details', 'refund_details', 'dispute_details', 'mandate_details'] as const;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'not_configured'] as const;

/** A comma-separated list of event types (or the parameter repeated). */
const eventTypes = z.union([z.string().max(2000), z.array(z.string().max(200)).max(50)]).transform((v, ctx) => {
  const parts = (Array.isArray(v) ? v : [v])
    .flatMap((s) => s.split(','))
    .map((p) => p.trim())
    .filter(Boolean);
  const bad = parts.find((p) => !(EVENT_TYPE_NAMES as readonly string[]).includes(p));
  if (bad !== undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown event type ${JSON.stringify(bad.slice(0, 60))}; must be one or more of ${EVENT_TYPE_NAMES.join(', ')} (comma-separated)`,
    });
    return z.NEVER;
  }
  return parts as EventTypeName[];
});

/** GET /events/{merchant_id}: newest first. */
export const ListEventsQuery = z
  .strictObject({
    object_id: str(255).min(1).optional(),
    event_types: eventTypes.optional(),
    created_after: Timestamp.optional(),
    created_before: Timestamp.optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
    offset: z.coerce.number().int().min(0).max(MAX_LIST_OFFSET).optional(),
  })
  .superRefine(rangesInOrder([[['created_after'], ['created_before']]]));

export const Event = z.object({
  event_id: z.string(),
  merchant_id: z.string(),
  profile_id: z.string().nullable(),
  event_type: EventTypeEnum,
  event_class: z.enum(['payments', 'refunds', 'disputes', 'mandates']),
  object_type: z.enum(EVENT_OBJECT_TYPES),
  object_id: z.string(),
  payment_id: z.string(),
  /** The payment's transition this event comes from: order a payment's events by (sequence, then created_at). */
  sequence: z.number().int(),
  created_at: Timestamp,
  delivery_status: z.enum(DELIVERY_STATUSES),
  is_delivery_successful: z.boolean(),
  delivery_attempts: z.number().int(),
  last_attempt_at: Timestamp.nullable(),
  delivered_at: Timestamp.nullable(),
});
export const EventList = z.object({ count: z.number().int(), total_count: z.number().int(), data: z.array(Event) });

export const EventAttempt = z.object({
  attempt_id: z.string(),
  event_id: z.string(),
  trigger: z.enum(['automatic', 'manual']),
  url: z.string().nullable(),
  request: z.object({ headers: z.record(z.string(), z.string()), body: z.string() }),
  response: z.object({ status_code: z.number().int(), body: z.string().describe('the first 2 KiB'), headers: z.record(z.string(), z.string()) }).nullable(),
  error: z.string().nullable(),
  delivered: z.boolean(),
  started_at: Timestamp,
  duration_ms: z.number().int(),
});
export const EventAttempts = z.array(EventAttempt);

/** POST /events/{merchant_id}/{event_id}/retry: the attempt it made (or `attempt: null` while it still runs). */
export const RetryEventResponse = z.object({ event: Event, attempt: EventAttempt.nullable() });

/**
 * The body of a webhook delivery to the merchant (domain/events.ts webhookPayload builds it): the object is the
 * resource as the API answers it, by content.type. Documented under the OpenAPI document's `webhooks`, so the typed
 * client's type of it is generated like every other.
 */
export const WebhookDelivery = z.object({
  merchant_id: z.string(),
  /** The same as the webhook-id header, on every retry: process each event once by it. */
  event_id: z.string(),
  event_type: EventTypeEnum,
  content: z.discriminatedUnion('type', [
    z.object({ type: z.literal('payment_details'), object: Payment }),
    z.object({ type: z.literal('refund_details'), object: Refund }),
    z.object({ type: z.literal('dispute_details'), object: Dispute }),
    z.object({ type: z.literal('mandate_details'), object: MandateResource }),
  ]),
  /** When the change was applied. */
  timestamp: Timestamp,
});
