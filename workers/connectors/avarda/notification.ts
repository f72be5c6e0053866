// Avarda's completion callback: POST checkoutSetup.completedNotificationUrl {"purchaseId": "…"} when a purchase
// completes (docs.avarda.com/checkout-3/more-features/server-side-callbacks/: retried every 10 minutes, at most 20
// times, until a 2xx), unsigned (a static Authorization header only on request to Avarda). So it is only a hint: the
// worker syncs the payment with that purchase id, reading it from Avarda on the account's own credentials.
import type { ProviderNotification } from '../kit/define.ts';
import { readBody } from '../kit/notification.ts';
import { Callback } from './schemas.ts';

export function parseNotification(rawBody: string): ProviderNotification {
  const c = readBody(rawBody, Callback, 'an Avarda completion callback');
  if (!('data' in c)) return c;
  return { object: 'hint', connector_transaction_id: c.data.purchaseId, event: 'purchase_completed' };
}
