// Admin bootstrap shaped like the leading switch: merchant accounts and their API keys (admin key only).
import { Router } from 'express';
import type { Db } from 'mongodb';
import { z } from 'zod';
import { errors } from '../../lib/errors.ts';
import { ids } from '../../lib/ids.ts';
import { isDuplicateKey } from '../../lib/mongo.ts';
import { adminAuth, hashKey, type ApiKeyDoc } from '../auth.ts';
import { idempotency } from '../idempotency.ts';
import { validate } from '../validate.ts';
import { Amount } from '../../lib/schemas/common.ts';
import { NO_POLICY, type MerchantPolicy } from '../../services/payment-state/state-machine.ts';

export const CreateMerchantAccountRequest = z.strictObject({
  merchant_id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').nullish(),
  merchant_name: z.string().max(255).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  /** Our own manual review: confirmed payments of at least this amount wait for the merchant's approve or reject. */
  manual_review: z.strictObject({ amount_at_least: Amount }).nullish(),
});

export const CreateApiKeyRequest = z.strictObject({
  name: z.string().min(1).max(64),
  description: z.string().max(256).nullish(),
  expiration: z.union([z.literal('never'), z.iso.datetime({ offset: true })]),
});

export interface MerchantDoc {
  merchant_id: string;
  merchant_name: string | null;
  publishable_key: string;
  metadata: Record<string, unknown> | null;
  manual_review: { amount_at_least: number } | null;
  created: string;
}

/** The settings payment-state needs for a confirm, read from the merchant account. */
export function merchantPolicies(db: Db) {
  const merchants = db.collection<MerchantDoc>('merchants');
  return async (merchantId: string): Promise<MerchantPolicy> => {
    const m = await merchants.findOne({ merchant_id: merchantId }, { projection: { manual_review: 1 } });
    return m?.manual_review ? { manual_review: true, manual_review_amount_at_least: m.manual_review.amount_at_least } : NO_POLICY;
  };
}

const merchantView = (m: MerchantDoc) => ({
  merchant_id: m.merchant_id, merchant_name: m.merchant_name, publishable_key: m.publishable_key, metadata: m.metadata,
  manual_review: m.manual_review ?? null, created: m.created,
});

export function accountsRouter(db: Db): Router {
  const merchants = db.collection<MerchantDoc>('merchants');
  const keys = db.collection<ApiKeyDoc>('api_keys');
  const r = Router();
  r.use(['/accounts', '/api_keys'], adminAuth(), idempotency(db));

  r.post('/accounts', async (req, res) => {
    const body = validate(CreateMerchantAccountRequest, req.body);
    const m: MerchantDoc = {
      merchant_id: body.merchant_id ?? ids.merchant(), merchant_name: body.merchant_name ?? null,
      publishable_key: ids.publishableKey(), metadata: body.metadata ?? null, manual_review: body.manual_review ?? null,
      created: new Date().toISOString(),
    };
    try {
      await merchants.insertOne({ ...m });
    } catch (err) {
      if (isDuplicateKey(err)) throw errors.duplicate('The merchant account with the specified merchant_id already exists', 'merchant_id');
      throw err;
    }
    res.json(merchantView(m));
  });

  r.post('/api_keys/:merchant_id', async (req, res) => {
    const body = validate(CreateApiKeyRequest, req.body);
    const merchant = await merchants.findOne({ merchant_id: req.params.merchant_id });
    if (!merchant) throw errors.notFound('Merchant account');
    if (body.expiration !== 'never' && Date.parse(body.expiration) <= Date.now()) throw errors.invalid('expiration', 'must be in the future');
    const apiKey = ids.secretKey();
    const doc: ApiKeyDoc = {
      key_id: ids.keyId(), merchant_id: merchant.merchant_id, name: body.name, description: body.description ?? null,
      key_hash: hashKey(apiKey), prefix: apiKey.slice(0, 12), created: new Date().toISOString(),
      expiration: body.expiration === 'never' ? null : new Date(body.expiration).toISOString(), revoked: false,
    };
    await keys.insertOne({ ...doc });
    res.json({
      key_id: doc.key_id, merchant_id: doc.merchant_id, name: doc.name, description: doc.description, api_key: apiKey,
      created: doc.created, expiration: doc.expiration ?? 'never',
    });
  });
  return r;
}
