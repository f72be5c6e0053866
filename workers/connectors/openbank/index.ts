// openbank: Santander Consumer's Zinia (the merchant login's Bearer token, cached by the runtime; an order the customer
// completes at Zinia's Link-Up; shipment confirmations as captures; cancel; refunds, possibly pending; unsigned
// notifications as hints). The manifest lists the flows; README.md describes the mapping and what is UNVERIFIED.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { cancelRequest, createOrderRequest, loginRequest, orderRequest, refundReadRequest, refundRequest, shipmentRequest } from './request.ts';
import { cancelOutcome, orderOutcome, refundOutcome, shipmentOutcome, tokenAnswer } from './response.ts';
import { parseNotification } from './notification.ts';

export const connector = defineConnector({
  manifest,
  token: { request: loginRequest, response: tokenAnswer },
  authorize: { request: createOrderRequest, response: orderOutcome },
  sync: { request: orderRequest, response: orderOutcome },
  capture: { request: shipmentRequest, response: shipmentOutcome },
  void: { request: cancelRequest, response: cancelOutcome },
  refund: { request: refundRequest, response: refundOutcome },
  refundSync: { request: refundReadRequest, response: refundOutcome },
  notification: { parse: parseNotification },
});
