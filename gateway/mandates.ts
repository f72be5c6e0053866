// Mandates and saved payment methods at the edge (issue 22): reading them, revoking a mandate (with its
// mandate_revoked event, stored and queued for the merchant's webhook like every event), and what deleting a customer
// does to them. The mandates themselves are written by the payment path (projections of the payment that set them
// up: adapters/mandate-store.ts); this is the only place that revokes one at a merchant's request.
import type { Db } from 'mongodb';
import type { Redis } from 'ioredis';
import { ApiError, errors } from '../lib/errors.ts';
import type { CustomerPaymentMethod, MandateResource } from '../lib/schemas/mandate.ts';
import { MandateStore, type MandateDoc, type PaymentMethodDoc } from '../adapters/mandate-store.ts';
import { MandateRevocations } from '../adapters/mandate-projection.ts';
import type { PaymentStore } from '../adapters/payment-store.ts';

/** The resource as the API shows it: the store reads only the schema's fields back (a null it did not keep as null). */
export const mandateResource = (m: MandateDoc): MandateResource => m;
/** A saved payment method as the API shows it (no merchant_id; BNPL keeps no sensitive data on it). */
export const paymentMethodResource = ({ merchant_id: _m, ...pm }: PaymentMethodDoc): CustomerPaymentMethod => pm;

/** 404 HE_02 naming the id looked for: unknown and another merchant's look the same. */
export const notFoundNaming = (what: string, param: string) => new ApiError(404, 'HE_02', `${what} does not exist in our records`, param);

export class Mandates {
  readonly store: MandateStore;
  private readonly revocations: MandateRevocations;

  constructor(db: Db, redis: Redis, payments: PaymentStore) {
    this.store = new MandateStore(db);
    this.revocations = new MandateRevocations(db, redis, payments);
  }

  async find(merchantId: string, mandateId: string): Promise<MandateDoc | null> {
    if (!mandateId || mandateId.length > 255) return null;
    return this.store.getMandate(merchantId, mandateId);
  }

  /**
   * POST /mandates/revoke/{mandate_id}: active -> revoked, once. Revoked already: answered revoked again (no second
   * event). Expired: refused (400 naming mandate_id), nothing changed. Unknown: 404.
   */
  async revoke(merchantId: string, mandateId: string): Promise<MandateDoc> {
    const m = await this.find(merchantId, mandateId);
    if (!m) throw notFoundNaming('Mandate', 'mandate_id');
    if (m.status === 'expired') throw expired(m);
    if (m.status === 'active') {
      const r = await this.store.revokeMandate(merchantId, mandateId, new Date().toISOString());
      if (!r) throw notFoundNaming('Mandate', 'mandate_id');
      if (r.mandate.status === 'expired') throw expired(r.mandate);
      await this.announce(r.mandate);
      return r.mandate;
    }
    // Revoked before: a revocation that crashed before its event gets it now (same id: stored and queued once).
    await this.announce(m);
    return m;
  }

  /** DELETE /customers/{id}: every mandate of the customer still active is revoked (with its event). */
  async revokeAllOf(merchantId: string, customerId: string): Promise<number> {
    let n = 0;
    for (const m of await this.store.listMandates(merchantId, customerId, 10_000)) {
      if (m.status === 'expired') continue;
      await this.revoke(merchantId, m.mandate_id);
      n++;
    }
    return n;
  }

  private async announce(m: MandateDoc): Promise<void> {
    await this.revocations.announce(mandateResource(m));
  }
}

const expired = (m: MandateDoc) =>
  errors.invalid('mandate_id', `the mandate ${m.mandate_id} expired at ${m.mandate_type?.single_use?.end_date ?? 'its end date'} and cannot be revoked`);
