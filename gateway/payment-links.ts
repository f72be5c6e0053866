// Payment links (spec 2.14): a record per link, pointing at its payment; amount, currency, description and expiry
// are read from the payment, so an update before confirmation shows in the link too.
import type { Db } from 'mongodb';
import { canExist } from '../lib/ids.ts';
import { isDuplicateKey } from '../lib/mongo.ts';
import type { PaymentLinkResource } from '../lib/schemas/payment-link.ts';
import { toResource } from '../domain/intent.ts';
import type { StoredPayment } from '../domain/payment.ts';

export interface PaymentLinkDoc {
  payment_link_id: string;
  merchant_id: string;
  payment_id: string;
  created_at: string;
}

export class PaymentLinks {
  private readonly col;
  constructor(db: Db) {
    this.col = db.collection<PaymentLinkDoc>('payment_links');
  }

  /** Record the link of a payment created with payment_link: true. Repeating it (a replayed create) adds nothing. */
  async saveFrom(p: StoredPayment): Promise<void> {
    if (!p.payment_link) return;
    try {
      await this.col.insertOne({
        payment_link_id: p.payment_link.payment_link_id,
        merchant_id: p.merchant_id,
        payment_id: p.payment_id,
        created_at: p.created,
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  async find(merchantId: string, paymentLinkId: string): Promise<PaymentLinkDoc | null> {
    if (!canExist('paymentLink', paymentLinkId)) return null;
    return this.col.findOne({ payment_link_id: paymentLinkId, merchant_id: merchantId }, { projection: { _id: 0 } });
  }
}

/** A link is active until the payment's session expires (session_expiry, default 900 s). */
export const linkExpired = (p: Pick<StoredPayment, 'expires_on'>, now = Date.now()) => !!p.expires_on && Date.parse(p.expires_on) <= now;

export function paymentLinkView(link: PaymentLinkDoc, p: StoredPayment): PaymentLinkResource {
  return {
    payment_link_id: link.payment_link_id,
    merchant_id: link.merchant_id,
    link_to_pay: p.payment_link!.link,
    amount: p.amount,
    created_at: link.created_at,
    status: linkExpired(p) ? 'expired' : 'active',
    expiry: p.expires_on!,
    description: p.description,
    currency: p.currency,
    secure_link: toResource(p).payment_link!.secure_link,
  };
}
