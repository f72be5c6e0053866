// Customers of a merchant: created or attached by payments (spec 4.1 "creates or attaches a customer"), and managed
// directly through the Customers API (gateway/routes/customers.ts).
import type { Db } from 'mongodb';
import { errors } from '../lib/errors.ts';
import { canExist, randomAlnum } from '../lib/ids.ts';
import { isDuplicateKey } from '../lib/mongo.ts';
import { CUSTOMER_FIELDS, type CreateCustomerBody, type CustomerResource, type ListCustomersParams, type UpdateCustomerBody } from '../lib/schemas/customer.ts';
import type { CustomerView } from '../domain/customer.ts';
import type { StoredPayment } from '../domain/payment.ts';

/** The stored customer: the resource plus its owner and last change (never shown). */
export type CustomerDoc = CustomerResource & { merchant_id: string; updated_at: string };

/** The Customer resource of a stored customer: only the resource's fields (no merchant_id, no _id). */
export function customerView(c: CustomerDoc): CustomerResource {
  return Object.fromEntries(CUSTOMER_FIELDS.map((k) => [k, c[k] ?? null])) as CustomerResource;
}

const DETAILS = ['name', 'email', 'phone', 'phone_country_code'] as const;

export class Customers {
  private readonly col;
  constructor(db: Db) {
    this.col = db.collection<CustomerDoc>('customers');
  }

  async find(merchantId: string, customerId: string): Promise<CustomerDoc | null> {
    if (!canExist('customer', customerId)) return null;
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
        customer_id: c.id,
        merchant_id: payment.merchant_id,
        name: null,
        email: null,
        phone: null,
        phone_country_code: null,
        description: null,
        address: null,
        metadata: null,
        ...details,
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const stored = await this.find(payment.merchant_id, c.id);
      if (stored && DETAILS.some((k) => details[k] !== undefined && stored[k] !== details[k])) {
        await this.col.updateOne({ customer_id: c.id, merchant_id: payment.merchant_id }, { $set: { ...details, updated_at: now } });
      }
    }
  }

  /** POST /customers: a new customer; a customer_id the merchant already has -> 409 (the unique index decides). */
  async create(merchantId: string, body: CreateCustomerBody): Promise<CustomerDoc> {
    const now = new Date().toISOString();
    const doc: CustomerDoc = {
      customer_id: body.customer_id ?? `cus_${randomAlnum(20)}`,
      merchant_id: merchantId,
      name: body.name ?? null,
      email: body.email ?? null,
      phone: body.phone ?? null,
      phone_country_code: body.phone_country_code ?? null,
      description: body.description ?? null,
      address: body.address ?? null,
      metadata: body.metadata ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.col.insertOne({ ...doc });
    } catch (err) {
      if (isDuplicateKey(err)) throw errors.duplicate('The customer with the specified customer_id already exists in our records', 'customer_id');
      throw err;
    }
    return doc;
  }

  /** POST /customers/{id}: the given fields replace the stored ones (null clears); the rest are kept. null if unknown. */
  async update(merchantId: string, customerId: string, body: UpdateCustomerBody): Promise<CustomerDoc | null> {
    if (!canExist('customer', customerId)) return null;
    const set = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const filter = { customer_id: customerId, merchant_id: merchantId };
    if (Object.keys(set).length === 0) return this.find(merchantId, customerId);
    // No projection: FerretDB 1.x does not implement one on findAndModify. The view drops _id anyway.
    const updated = await this.col.findOneAndUpdate(filter, { $set: { ...set, updated_at: new Date().toISOString() } }, { returnDocument: 'after' });
    if (!updated) return null;
    const { _id, ...doc } = updated;
    return doc;
  }

  /** GET /customers/list: the merchant's customers, newest first. */
  async list(merchantId: string, { limit, offset }: ListCustomersParams): Promise<CustomerDoc[]> {
    return this.col
      .find({ merchant_id: merchantId }, { projection: { _id: 0 } })
      .sort({ created_at: -1, customer_id: -1 })
      .skip(offset)
      .limit(limit)
      .toArray();
  }

  /** DELETE /customers/{id}: removes the record (payments keep their own copy). false if there was none. */
  async delete(merchantId: string, customerId: string): Promise<boolean> {
    if (!canExist('customer', customerId)) return false;
    const r = await this.col.deleteOne({ customer_id: customerId, merchant_id: merchantId });
    return r.deletedCount === 1;
  }
}
