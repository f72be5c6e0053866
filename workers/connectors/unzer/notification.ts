// Unzer's webhooks are unsigned (its docs: the receiver must not require auth; verify by fetching the resource): the
// body `{event, publicKey, retrieveUrl, paymentId}` (sent as text/plain) only says that a payment changed. It is a
// hint: the worker syncs the payment it names with our own credentials and takes only what Unzer answers there; the
// event, the publicKey and the retrieveUrl are never trusted (a forged retrieveUrl is never fetched).
import { readBody } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { Webhook } from './schemas.ts';

export function parseNotification(rawBody: string): ProviderNotification {
  const w = readBody(rawBody, Webhook, 'an Unzer payment webhook');
  if (!('data' in w)) return w;
  return { object: 'hint', connector_transaction_id: w.data.paymentId, event: w.data.event };
}
