// Svea's push: a POST to the order's pushUri (our webhook URL) saying that checkout order N changed, in the shape of
// Svea's callback events {EventName, CheckoutOrderId, IsPending, CorrelationId, TimestampUtc, DeliveryId?, CreditId?}.
// Svea signs nothing: the push is only a hint, the worker reads the order from Svea itself (manifest webhook 'unsigned').
import { z } from 'zod';
import type { ProviderNotification } from '../types.ts';

const Push = z.object({
  EventName: z.string().min(1),
  CheckoutOrderId: z.union([z.number().int(), z.string().min(1)]).transform(String),
  IsPending: z.boolean().nullish(),
  CorrelationId: z.string().nullish(),
  TimestampUtc: z.string().nullish(),
});

/** Events about an order's payment or its credits: every one is a reason to read the order again. */
const EVENTS = new Set(['CheckoutOrder.Created', 'CheckoutOrder.Delivered', 'CheckoutOrder.CreditSucceeded', 'CheckoutOrder.CreditFailed', 'CheckoutOrder.Closed', 'CheckoutOrder.Cancelled']);

export function parseNotification(rawBody: string): ProviderNotification {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { object: 'unknown', reason: 'the body is not JSON' };
  }
  const r = Push.safeParse(json);
  if (!r.success) return { object: 'unknown', reason: `not a Svea push: ${z.prettifyError(r.error)}` };
  if (!EVENTS.has(r.data.EventName)) return { object: 'unknown', reason: `event ${r.data.EventName} is not one we act on` };
  return { object: 'hint', connector_transaction_id: r.data.CheckoutOrderId, event: r.data.EventName };
}
