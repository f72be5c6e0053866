// Riverty's webhooks: {Header: {MessageName, MessageId, TransmittedTimestamp, ClientId, ShopId, CountryCode, Version},
// Body: {...}} POSTed to the endpoint Riverty's integration team registered for the merchant (docs.riverty.com
// webhooks). Order events name the order in Body.OrderNumber: CustomerAuthenticationCompleted {OrderNumber, Status:
// Accepted | Cancelled | Expired} (the customer's authentication ended), AuthorizeAccepted {OrderNumber, ...}.
// The manifest's scheme is `unsigned`: Riverty's webhooks page shows a `Riverty-Signature: t=…,v1=…` header, but not
// how its signed string is made (UNVERIFIED), so a webhook is only a hint: the worker reads the order it names
// (GET /orders/{number}, the status sync) and acts on Riverty's answer, never on the webhook's word. Other events
// (invoices, disputes) name no order of ours: unknown, left with their 2xx.
import { readBody, readPart, unreadable } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { OrderEventBody, WebhookMessage } from './schemas.ts';

/** The events about an order's authorization that we act on (by reading the order). */
export const ORDER_EVENTS = new Set(['CustomerAuthenticationCompleted', 'AuthorizeAccepted']);

export function parseNotification(rawBody: string): ProviderNotification {
  const m = readBody(rawBody, WebhookMessage, 'a riverty webhook message');
  if (!('data' in m)) return m;
  const name = m.data.Header.MessageName;
  if (!ORDER_EVENTS.has(name)) return unreadable(`message ${name} is not one we act on`);
  const body = readPart(m.data.Body, OrderEventBody, `${name} naming its order (Body.OrderNumber)`);
  if (!('data' in body)) return body;
  return { object: 'hint', connector_transaction_id: body.data.OrderNumber, event: body.data.Status ? `${name}:${body.data.Status}` : name };
}
