// Avarda's completion callback: POST checkoutSetup.completedNotificationUrl {"purchaseId": "…"} when a purchase
// completes (docs.avarda.com/checkout-3/more-features/server-side-callbacks/: retried every 10 minutes, at most 20
// times, until a 2xx), unsigned (a static Authorization header only on request to Avarda). So it is only a hint: the
// worker syncs the payment with that purchase id, reading it from Avarda on the account's own credentials.
import { z } from 'zod';
import type { ProviderNotification } from '../types.ts';
import { Callback } from './schemas.ts';

export function parseNotification(rawBody: string): ProviderNotification {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { object: 'unknown', reason: 'the body is not JSON' };
  }
  const c = Callback.safeParse(json);
  if (!c.success) return { object: 'unknown', reason: `not an Avarda completion callback: ${z.prettifyError(c.error)}` };
  return { object: 'hint', connector_transaction_id: c.data.purchaseId, event: 'purchase_completed' };
}
