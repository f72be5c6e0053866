// Twisto's webhooks: POST JSON to the URL the merchant registered at onboarding (ours:
// `<PROVIDER_WEBHOOK_BASE_URL>/webhooks/<merchant_id>/<merchant_connector_id>`), on approved, completed, cancelled,
// error, settled, refunded: {checkout_id, total_amount, refunded_amount, created_date, settled_date, type, state,
// external_id}. Twisto documents no signature (manifest webhook scheme `unsigned`), so a webhook is only a hint: the
// worker reads the checkout it names (the status sync of its open authorization, its open refunds) and acts on that.
import { readBody } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { TwistoWebhook } from './schemas.ts';

export function parseNotification(rawBody: string): ProviderNotification {
  const w = readBody(rawBody, TwistoWebhook, 'a Twisto webhook');
  if (!('data' in w)) return w;
  return { object: 'hint', connector_transaction_id: w.data.checkout_id, event: w.data.state };
}
