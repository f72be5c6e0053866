// POST /ephemeral_keys (the leading switch's call; secret key only, mounted with keyAuth in app.ts): a new ephemeral
// key for one of the merchant's customers, in the shape a payment's create answers (`ephemeral_key`) plus its id.
// Stored with the secret only as an HMAC (as API keys are), expiring with the key.
import type { Router } from 'express';
import type { Db } from 'mongodb';
import { errors } from '../../lib/errors.ts';
import { ids } from '../../lib/ids.ts';
import { CreateEphemeralKeyRequest, type EphemeralKey } from '../../lib/schemas/customer.ts';
import { ephemeralKeyFor } from '../../domain/intent.ts';
import { hashKey } from '../auth.ts';
import type { Customers } from '../customers.ts';
import { validate } from '../validate.ts';
import { scopedRouter } from '../scope.ts';

/** customer_id names a customer to find: any string; one the merchant has not is 404 naming customer_id. */

export interface EphemeralKeyDoc {
  id: string;
  merchant_id: string;
  customer_id: string;
  created_at: number;
  expires: number;
  secret_hash: string;
}

export function ephemeralKeysRouter(db: Db, customers: Customers): Router {
  const keys = db.collection<EphemeralKeyDoc>('ephemeral_keys');
  const r = scopedRouter();

  r.post('/ephemeral_keys', async (req, res) => {
    const merchantId = req.merchantId!;
    const { customer_id } = validate(CreateEphemeralKeyRequest, req.body);
    // Another merchant's customer is not found, as an unknown one is.
    if (!(await customers.find(merchantId, customer_id))) throw errors.notFound('Customer', 'customer_id');
    const key = { id: ids.ephemeralKey(), ...ephemeralKeyFor(customer_id, Math.floor(Date.now() / 1000), ids.ephemeralSecret()) };
    await keys.insertOne({
      id: key.id,
      merchant_id: merchantId,
      customer_id,
      created_at: key.created_at,
      expires: key.expires,
      secret_hash: hashKey(key.secret),
    });
    // The secret is answered once, here.
    const answer: EphemeralKey = { id: key.id, customer_id: key.customer_id, created_at: key.created_at, expires: key.expires, secret: key.secret };
    res.json(answer);
  });

  return r;
}
