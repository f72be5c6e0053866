// Mondu's answers and webhooks as zod schemas (order, invoice, credit note, errors, the order webhooks), from Mondu's
// own shapes (README.md, Sources; fixtures/). Read through the kit (readAnswer, maybeAnswer, readBody): never cast.
import { z } from 'zod';

export const ORDER_STATES = [
  'draft',
  'created',
  'data_required',
  'authorized',
  'pending',
  'confirmed',
  'declined',
  'canceled',
  'shipped',
  'partially_shipped',
  'complete',
  'partially_complete',
] as const;

export const MonduOrder = z.object({
  uuid: z.string().min(1),
  state: z.enum(ORDER_STATES),
  external_reference_id: z.string().nullish(),
  hosted_checkout_url: z.string().nullish(),
  decline_reason: z.string().nullish(),
});

export const OrderAnswer = z.object({ order: MonduOrder });

/** {invoice: {uuid, state, invoice_number, gross_amount_cents, …}}: magento2-checkout `Helpers/InvoiceOrderHelper.php`
 * (uuid, state), woocommerce `Presenters/PaymentInfo.php` (invoice_number, gross_amount_cents, state `canceled`). */
export const InvoiceAnswer = z.object({
  invoice: z.object({
    uuid: z.string().min(1),
    state: z.string(),
    invoice_number: z.string().nullish(),
    external_reference_id: z.string().nullish(),
    gross_amount_cents: z.number().int().optional(),
  }),
});

export const CreditNoteAnswer = z.object({
  credit_note: z.object({ uuid: z.string().min(1), external_reference_id: z.string().nullish(), gross_amount_cents: z.number().int() }),
});

export const MonduError = z.object({
  status: z.number().int().optional(),
  errors: z.array(z.object({ name: z.string(), details: z.string() })).min(1),
});

export type MonduErrorBody = z.infer<typeof MonduError>;

export const Webhook = z.object({ topic: z.string().min(1) }).passthrough();

export const OrderWebhook = z.object({
  topic: z.string(),
  order_uuid: z.string().min(1),
  external_reference_id: z.string().nullish(),
  order_state: z.enum(ORDER_STATES),
  /** A decline's reason (e.g. `risk_policy`, `buyer_fraud`): magento2-checkout `Controller/Webhooks/Index.php` reads
   * `reason` (issue 21: we read `decline_reason`, which no Mondu material shows in a webhook). */
  reason: z.string().nullish(),
  /** When Mondu last changed the order (UNVERIFIED: no published payload has a timestamp; absent, '' is used). */
  updated_at: z.string().nullish(),
  created_at: z.string().nullish(),
});
