// Zaver's callbacks: POSTed to merchantUrls.callbackUrl (our gateway's address for the account, sent with the payment
// and with each refund) with the merchant's static callback token in the Authorization header (the SDK's
// receiveCallback takes its last word, so `Bearer <token>` or the bare token; checked by the gateway, manifest scheme
// shared_secret). The body is the object itself (SDK Checkout::receiveCallback, Refund::receiveCallback):
//   a PaymentStatusResponse {paymentId, paymentStatus, ...}  the authorization's outcome (CREATED says nothing new)
//   a RefundResponse {refundId, paymentId, status, merchantReference, lastEvent, ...}  the refund's outcome
// A payment has no timestamp (UNVERIFIED that none exists): its callbacks are not ordered among themselves, which is
// safe because payment-state never reopens a closed authorization. A refund is ordered by its lastEvent.
import { z } from 'zod';
import { readBody, readPart, unreadable } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { paymentOutcome, refundStatusOutcome } from './response.ts';
import { PaymentStatusResponse, RefundResponse } from './schemas.ts';

export function parseNotification(rawBody: string): ProviderNotification {
  const body = readBody(rawBody, z.record(z.string(), z.unknown()), 'a JSON object');
  if (!('data' in body)) return body;
  if ('refundId' in body.data) {
    const r = readPart(body.data, RefundResponse, 'a Zaver refund');
    if (!('data' in r)) return r;
    const x = r.data;
    return {
      object: 'refund',
      connector_transaction_id: x.paymentId,
      object_id: x.refundId,
      provider_updated_at: x.lastEvent ?? '',
      refund_reference: x.merchantReference ?? null,
      connector_refund_id: x.refundId,
      outcome: refundStatusOutcome(x),
    };
  }
  const p = readPart(body.data, PaymentStatusResponse, 'a Zaver payment or refund');
  if (!('data' in p)) return p;
  if (p.data.paymentStatus === 'CREATED') return unreadable('CREATED: the payment link is still waiting for the payer');
  return {
    object: 'payment',
    connector_transaction_id: p.data.paymentId,
    object_id: p.data.paymentId,
    provider_updated_at: '',
    outcome: paymentOutcome(p.data),
  };
}
