// Twisto's webhooks: POST JSON to the URL the merchant registered at onboarding (ours:
// `<PROVIDER_WEBHOOK_BASE_URL>/webhooks/<merchant_id>/<merchant_connector_id>`), on approved, completed, cancelled,
// error, settled, refunded: {checkout_id, total_amount, refunded_amount, created_date, settled_date, type, state,
// external_id}. Twisto documents no signature (manifest webhook scheme `unsigned`), so a webhook is only a hint: the
// worker reads the checkout it names (the status sync of its open authorization, its open refunds) and acts on that.
import { z } from 'zod';
import { readBody } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';

export const TwistoWebhook = z.object({
  checkout_id: z.string().min(1),
  state: z.string().min(1),
  total_amount: z.string().nullish(),
  refunded_amount: z.string().nullish(),
  created_date: z.string().nullish(),
  settled_date: z.string().nullish(),
  type: z.string().nullish(),
  external_id: z.string().nullish(),
});

export function parseNotification(rawBody: string): ProviderNotification {
  const w = readBody(rawBody, TwistoWebhook, 'a Twisto webhook');
  if (!('data' in w)) return w;
  return { object: 'hint', connector_transaction_id: w.data.checkout_id, event: w.data.state };
}
