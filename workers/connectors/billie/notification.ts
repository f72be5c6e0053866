// Billie's webhooks (enabled by Billie on request, to an address Billie configures: our
// `<PROVIDER_WEBHOOK_BASE_URL>/webhooks/<merchant_id>/<merchant_connector_id>`). Billie signs nothing: it sends the
// static secret agreed with the merchant in a header (X-Api-Key), which the gateway compares with the account's
// connector_webhook_details.merchant_secret before anything is written. The body:
//   {event, created_at "YYYY-MM-DD HH:MM:SS", order_id (our merchant_order_reference_id), order_uuid, invoice_uuid?, amount?, open_amount?}
// order_approved / order_declined decide an order Billie was reviewing (state waiting); every other event
// (order_created, order_shipped, order_canceled, invoice_*, ...) is answered by our own calls already.
import { readBody, unreadable } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { declined } from './errors.ts';
import { Webhook } from './schemas.ts';

/** Billie's "Y-m-d H:i:s" (UTC, UNVERIFIED) as ISO 8601, so notifications about one order are ordered. */
const iso = (billieDate: string) => `${billieDate.slice(0, 19).replace(' ', 'T')}Z`;

export function parseNotification(rawBody: string): ProviderNotification {
  const w = readBody(rawBody, Webhook, 'a Billie webhook');
  if (!('data' in w)) return w;
  const n = w.data;
  const base = { object: 'payment' as const, connector_transaction_id: n.order_uuid, object_id: n.order_uuid, provider_updated_at: iso(n.created_at) };
  switch (n.event) {
    case 'order_approved':
      return { ...base, outcome: { kind: 'AUTHORIZED', connector_transaction_id: n.order_uuid, connector_reference_id: n.order_id ?? undefined } };
    case 'order_declined':
      return { ...base, outcome: { kind: 'DECLINED', connector_transaction_id: n.order_uuid, ...declined(n.decline_reason) } };
    default:
      return unreadable(`${n.event}: not an event we act on`);
  }
}
