// Disputes: the Dispute resource (spec 2.10), the copy a Payment embeds, and GET /disputes/list's query (the
// leading switch's parameter names). Disputes exist only because a provider says so (ARCHITECTURE.md).
import { z } from 'zod';
import { Connector, Currency, Timestamp, str } from './common.ts';
import { rangesInOrder } from './list-limits.ts';

const n = <T extends z.ZodType>(t: T) => t.nullable();

export const DISPUTE_STAGES = ['pre_dispute', 'dispute', 'pre_arbitration'] as const;
export const DISPUTE_STATUSES = [
  'dispute_opened',
  'dispute_expired',
  'dispute_accepted',
  'dispute_cancelled',
  'dispute_challenged',
  'dispute_won',
  'dispute_lost',
] as const;
export const DisputeStage = z.enum(DISPUTE_STAGES);
export const DisputeStatus = z.enum(DISPUTE_STATUSES);

export const Dispute = z.object({
  dispute_id: z.string(),
  payment_id: z.string(),
  attempt_id: n(z.string()),
  /** Minor units, as a string (spec 2.10). */
  amount: z.string(),
  currency: Currency,
  dispute_stage: DisputeStage,
  dispute_status: DisputeStatus,
  connector: Connector,
  connector_status: z.string(),
  connector_dispute_id: z.string(),
  connector_reason: n(z.string()),
  connector_reason_code: n(z.string()),
  /** When we received it. */
  created_at: Timestamp,
  challenge_required_by: n(Timestamp),
  connector_created_at: n(Timestamp),
  connector_updated_at: n(Timestamp),
  profile_id: n(z.string()),
  merchant_connector_id: n(z.string()),
});

/** The copy a Payment holds (spec 2.10's last paragraph): exactly these fields. */
export const PAYMENT_DISPUTE_FIELDS = [
  'dispute_id',
  'dispute_stage',
  'dispute_status',
  'connector_status',
  'connector_dispute_id',
  'created_at',
  'connector_reason',
  'connector_reason_code',
  'challenge_required_by',
  'connector_created_at',
  'connector_updated_at',
] as const satisfies readonly (keyof z.infer<typeof Dispute>)[];
export const PaymentDispute = Dispute.pick(
  Object.fromEntries(PAYMENT_DISPUTE_FIELDS.map((k) => [k, true])) as { [K in (typeof PAYMENT_DISPUTE_FIELDS)[number]]: true },
);

/** A comma-separated list of enum values in a query parameter. */
const csv = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .max(1000)
    .transform((s, ctx) => {
      const parts = s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      for (const p of parts) {
        if (!(values as readonly string[]).includes(p)) {
          ctx.addIssue({ code: 'custom', message: `must be one or more of ${values.join(', ')} (comma-separated)` });
          return z.NEVER;
        }
      }
      return parts as T[number][];
    });

/** GET /disputes/list. */
export const ListDisputesQuery = z
  .strictObject({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    dispute_status: csv(DISPUTE_STATUSES).optional(),
    dispute_stage: csv(DISPUTE_STAGES).optional(),
    reason: str(255).optional(),
    connector: csv(Connector.options as unknown as readonly [string, ...string[]]).optional(),
    received_time: Timestamp.optional(),
    'received_time.lt': Timestamp.optional(),
    'received_time.gt': Timestamp.optional(),
    'received_time.lte': Timestamp.optional(),
    'received_time.gte': Timestamp.optional(),
  })
  .superRefine(
    rangesInOrder([
      [['received_time.gt'], ['received_time.lt']],
      [['received_time.gte'], ['received_time.lte']],
      [['received_time.gt'], ['received_time.lte']],
      [['received_time.gte'], ['received_time.lt']],
    ]),
  );

export type DisputeResource = z.infer<typeof Dispute>;
export type DisputeStageName = z.infer<typeof DisputeStage>;
export type DisputeStatusName = z.infer<typeof DisputeStatus>;
