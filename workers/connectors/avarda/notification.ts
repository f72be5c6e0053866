// Avarda's completion callback: POST checkoutSetup.completedNotificationUrl {"purchaseId": "…"} when a purchase
// completes, unsigned (the merchant must read the purchase to know). So it is only a hint: the worker syncs the payment
// with that purchase id, reading it from Avarda on the account's own credentials.
import { z } from 'zod';
import type { ProviderNotification } from '../types.ts';

const Callback = z.object({ purchaseId: z.string().min(1) }).passthrough();

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
