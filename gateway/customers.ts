// Customers of a merchant: created or attached by payments (spec 4.1 "creates or attaches a customer").
import type { Db } from 'mongodb';
import { isDuplicateKey } from '../lib/mongo.ts';
import type { CustomerView, StoredPayment } from '../services/payment-state/state-machine.ts';

export interface CustomerDoc {
  customer_id: string;
  merchant_id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  phone_country_code: string | null;
  description: string | null;
  address: unknown;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

const DETAILS = ['name', 'email', 'phone', 'phone_country_code'] as const;

export class Customers {
  private readonly col;
  constructor(db: Db) {
    this.col = db.collection<CustomerDoc>('customers');
  }

  async find(merchantId: string, customerId: string): Promise<CustomerDoc | null> {
    return this.col.findOne({ customer_id: customerId, merchant_id: merchantId }, { projection: { _id: 0 } });
  }

  /** The customer a create attaches by id, as the payment shows it. */
  async known(merchantId: string, customerId: string | null | undefined): Promise<CustomerView | null> {
    if (!customerId) return null;
    const c = await this.find(merchantId, customerId);
    return c ? { id: c.customer_id, name: c.name, email: c.email, phone: c.phone, phone_country_code: c.phone_country_code } : null;
  }

  /**
   * Keep the customer record in step with the payment's customer: create it if it is new, else update the details
   * the payment carries. Repeating it changes nothing, so a replayed or retried request may call it again.
   */
  async saveFrom(payment: Pick<StoredPayment, 'merchant_id' | 'customer'>): Promise<void> {
    const c = payment.customer;
    if (!c?.id) return;
    const now = new Date().toISOString();
    const details = Object.fromEntries(DETAILS.filter((k) => c[k] != null).map((k) => [k, c[k]]));
    try {
      await this.col.insertOne({
        customer_id: c.id, merchant_id: payment.merchant_id, name: null, email: null, phone: null, phone_country_code: null,
        description: null, address: null, metadata: null, ...details, created_at: now, updated_at: now,
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const stored = await this.find(payment.merchant_id, c.id);
      if (stored && DETAILS.some((k) => details[k] !== undefined && stored[k] !== details[k])) {
        await this.col.updateOne({ customer_id: c.id, merchant_id: payment.merchant_id }, { $set: { ...details, updated_at: now } });
      }
    }
  }
}
