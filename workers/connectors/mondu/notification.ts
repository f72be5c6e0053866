// Mondu's webhooks (signed: X-MONDU-SIGNATURE = hex HMAC-SHA256 of the raw body with the account's webhook_secret,
// verified by the gateway): {topic, order_uuid, external_reference_id, order_state, reason (a decline's), bank_account}
// (magento2-checkout playwright/helpers/webhook.ts and Controller/Webhooks/Index.php). Mondu has no per-order
// notification URL: the merchant registers one per topic (POST /webhooks {topic, address}), which is
// `<PROVIDER_WEBHOOK_BASE_URL>/webhooks/<merchant_id>/<merchant_connector_id>`.
//   order/confirmed, order/pending, order/declined, order/canceled   the authorization's outcome
//   order/authorized  the buyer finished the checkout: a hint, so the status sync runs at once (it reads the order
//                     and confirms it: docs.mondu.ai Confirm Order, "received the order/authorized webhook")
//   invoice/*, payout/*, buyer/*, …  nothing for us: captures and refunds are answered at once
import type { z } from 'zod';
import { readBody, readPart, unreadable } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { orderOutcome } from './response.ts';
import { type MonduOrder, OrderWebhook, Webhook } from './schemas.ts';

// `order/cancelled` too: the WooCommerce plugin's WebhooksController handles both spellings.
const ORDER_TOPICS = new Set(['order/confirmed', 'order/pending', 'order/declined', 'order/canceled', 'order/cancelled']);
const unknown = unreadable;

export function parseNotification(rawBody: string): ProviderNotification {
  const w = readBody(rawBody, Webhook, 'a Mondu webhook');
  if (!('data' in w)) return w;
  const topic = w.data.topic;
  if (topic === 'order/authorized') {
    const o = readPart(w.data, OrderWebhook, 'a Mondu order/authorized webhook');
    if (!('data' in o)) return o;
    return { object: 'hint', connector_transaction_id: o.data.order_uuid, event: topic };
  }
  if (!ORDER_TOPICS.has(topic)) return unknown(`${topic}: not a topic we act on`);
  const o = readPart(w.data, OrderWebhook, `a Mondu ${topic} webhook`);
  if (!('data' in o)) return o;
  const n = o.data;
  const order: z.infer<typeof MonduOrder> = {
    uuid: n.order_uuid,
    state: n.order_state,
    external_reference_id: n.external_reference_id,
    decline_reason: n.reason,
  };
  return {
    object: 'payment',
    connector_transaction_id: n.order_uuid,
    object_id: n.order_uuid,
    provider_updated_at: n.updated_at ?? n.created_at ?? '',
    outcome: orderOutcome(order),
  };
}
