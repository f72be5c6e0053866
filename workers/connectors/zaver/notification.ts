// Zaver's callbacks: POSTed to merchantUrls.callbackUrl (our gateway's address for the account, sent with the payment
// and with each refund) with the merchant's static callback token in `Authorization: Bearer <token>` (checked by the
// gateway, manifest scheme shared_secret). The body is the object itself:
//   a PaymentStatusResponse {paymentId, paymentStatus, ...}  the authorization's outcome (CREATED says nothing new)
//   a RefundResponse {refundId, paymentId, status, merchantReference, lastEvent, ...}  the refund's outcome
// A payment has no timestamp (UNVERIFIED that none exists): its callbacks are not ordered among themselves, which is
// safe because payment-state never reopens a closed authorization. A refund is ordered by its lastEvent.
import { z } from 'zod';
import { readBody, unreadable } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { paymentOutcome, refundStatusOutcome, ZaverPayment, ZaverRefund } from './response.ts';

export function parseNotification(rawBody: string): ProviderNotification {
  const body = readBody(rawBody, z.record(z.string(), z.unknown()), 'a JSON object');
  if (!('data' in body)) return body;
  if ('refundId' in body.data) {
    const r = ZaverRefund.safeParse(body.data);
    if (!r.success) return unreadable(`not a Zaver refund: ${z.prettifyError(r.error)}`);
    const x = r.data;
    return {
      object: 'refund', connector_transaction_id: x.paymentId, object_id: x.refundId, provider_updated_at: x.lastEvent ?? '',
      refund_reference: x.merchantReference ?? null, connector_refund_id: x.refundId, outcome: refundStatusOutcome(x),
    };
  }
  const p = ZaverPayment.safeParse(body.data);
  if (!p.success) return unreadable(`not a Zaver payment or refund: ${z.prettifyError(p.error)}`);
  if (p.data.paymentStatus === 'CREATED') return unreadable('CREATED: the payment link is still waiting for the payer');
  return { object: 'payment', connector_transaction_id: p.data.paymentId, object_id: p.data.paymentId, provider_updated_at: '', outcome: paymentOutcome(p.data) };
}
