// Svea's two kinds of notice, both unsigned (a hint: the worker reads the order from Svea itself, manifest webhook
// 'unsigned'):
// - the push to the order's merchantSettings.pushUri when its checkout status changes: Svea replaces
//   `{checkout.order.uri}` in the URI with the checkout order id, so the order is named in the URL (our
//   `?svea_order=`), not in a body (php-checkout README §11.1; svea-sdk-dotnet DataSample PushUri; nwt-magento2-checkout
//   Controller/Order/Push.php reads the id from the URL). No source gives the push a body we could rely on.
// - a callback event, POSTed as JSON {EventName, CheckoutOrderId, ...} to a URL registered with Svea
//   (docs.payments.svea.com/docs/manage-order/callbacks/callback_events).
import { readBody, unreadable } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { CallbackEvent } from './schemas.ts';

/** The query parameter our pushUri names the order in (request.ts pushUri). */
export const PUSH_PARAM = 'svea_order';

/** Svea's documented callback events: every one is a reason to read the order again. */
const EVENTS = new Set([
  'CheckoutOrder.Created',
  'CheckoutOrder.Delivered',
  'CheckoutOrder.CreditSucceeded',
  'CheckoutOrder.CreditFailed',
  'CheckoutOrder.Closed',
]);

export function parseNotification(rawBody: string, request: { query?: Record<string, string> } = {}): ProviderNotification {
  const pushed = request.query?.[PUSH_PARAM];
  if (pushed !== undefined) {
    // The push: the order id Svea put in place of {checkout.order.uri}; whatever body came with it is not read.
    return /^\d{1,19}$/.test(pushed)
      ? { object: 'hint', connector_transaction_id: pushed, event: 'push' }
      : unreadable(`the push names no checkout order id (${PUSH_PARAM}=${pushed.slice(0, 40)})`);
  }
  // No order in the URL: a callback event, or nothing of Svea's.
  const r = readBody(rawBody, CallbackEvent, `a Svea callback event (and no ${PUSH_PARAM} in the URL)`);
  if (!('data' in r)) return r;
  if (!EVENTS.has(r.data.EventName)) return unreadable(`event ${r.data.EventName} is not one we act on`);
  return { object: 'hint', connector_transaction_id: r.data.CheckoutOrderId, event: r.data.EventName };
}
