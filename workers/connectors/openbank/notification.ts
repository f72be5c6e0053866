// Zinia's notifications (the guide's "Notifications" chapter: order status changes pushed to the merchant; payload and
// signature UNVERIFIED). Designed as the sheet suggests: an unsigned POST to the order's urls.notification_url,
//   {event: ORDER_STATUS_CHANGED | REFUND_STATUS_CHANGED, order_id, merchant_order_id, status, refund_id?, timestamp}
// after which the merchant re-reads the order. Nothing proves the body is Zinia's, so it is only a hint: the worker
// syncs the payment's open authorization and refunds with Zinia (manifest webhook scheme 'unsigned').
import { readBody } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { ZiniaNotification } from './schemas.ts';

export function parseNotification(rawBody: string): ProviderNotification {
  const r = readBody(rawBody, ZiniaNotification, 'a Zinia notification');
  if (!('data' in r)) return r;
  const n = r.data;
  return { object: 'hint', connector_transaction_id: n.order_id, event: n.status ? `${n.event} ${n.status}` : n.event };
}
