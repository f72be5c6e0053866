// Merchant accounts and their API keys (admin key), shaped like the leading switch's admin API.
import type { Router } from 'express';
import type { z } from 'zod';
import type { Db } from 'mongodb';
import { errors, found } from '../../lib/errors.ts';
import { ids, randomAlnum } from '../../lib/ids.ts';
import { isDuplicateKey } from '../../lib/mongo.ts';
import { MerchantStore, type ApiKeyDoc, type MerchantDoc } from '../../lib/merchant-store.ts';
import {
  type ApiKeyResource,
  CreateApiKeyRequest,
  CreateMerchantAccountRequest,
  type MerchantAccountResource,
  UpdateApiKeyRequest,
  UpdateMerchantAccountRequest,
} from '../../lib/schemas/merchant.ts';
import { adminAuth, adminOrOwnSecret, type ApiKeys, hashKey } from '../auth.ts';
import { idempotency } from '../idempotency.ts';
import { validate } from '../validate.ts';
import { scopedRouter } from '../scope.ts';
import { connectorAccountsRouter } from './connector-accounts.ts';
import { newProfile, profilesRouter } from './profiles.ts';

export const merchantView = (m: MerchantDoc): MerchantAccountResource => ({
  merchant_id: m.merchant_id,
  merchant_name: m.merchant_name,
  publishable_key: m.publishable_key,
  metadata: m.metadata,
  manual_review: m.manual_review ?? null,
  default_profile: m.default_profile ?? null,
  created: m.created,
  updated: m.updated ?? m.created,
});

export const keyView = (k: ApiKeyDoc): ApiKeyResource => ({
  key_id: k.key_id,
  merchant_id: k.merchant_id,
  name: k.name,
  description: k.description,
  prefix: k.prefix,
  created: k.created,
  expiration: k.expiration ?? 'never',
  revoked: k.revoked,
});

const futureExpiration = (expiration: string) => {
  if (expiration === 'never') return null;
  if (Date.parse(expiration) <= Date.now()) throw errors.invalid('expiration', 'must be in the future');
  return new Date(expiration).toISOString();
};

/** Called after every change of a merchant's setup, so that cached snapshots of it are dropped. */
export type SetupChanged = (merchantId: string) => Promise<void>;

/**
 * A new merchant account with its default business profile (the admin API's POST /accounts and the dashboard's sign
 * up). Throws 409 HE_01 when the merchant id was ever given.
 */
export async function createMerchantAccount(
  setup: MerchantStore,
  body: z.infer<typeof CreateMerchantAccountRequest>,
  changed: SetupChanged,
): Promise<MerchantDoc> {
  const now = new Date().toISOString();
  const merchantId = body.merchant_id ?? ids.merchant();
  // A merchant id is given once, ever: a deleted merchant's payments, customers and events still carry it.
  if (!(await setup.claimMerchantId(merchantId))) {
    throw errors.duplicate(
      (await setup.merchant(merchantId))
        ? 'The merchant account with the specified merchant_id already exists'
        : 'The specified merchant_id was used by a merchant account that was deleted: merchant ids are never reused, choose another',
      'merchant_id',
    );
  }
  const m: MerchantDoc = {
    merchant_id: merchantId,
    merchant_name: body.merchant_name ?? null,
    publishable_key: ids.publishableKey(),
    metadata: body.metadata ?? null,
    manual_review: body.manual_review ?? null,
    default_profile: null,
    created: now,
    updated: now,
  };
  try {
    await setup.merchants.insertOne({ ...m });
  } catch (err) {
    if (isDuplicateKey(err)) throw errors.duplicate('The merchant account with the specified merchant_id already exists', 'merchant_id');
    throw err;
  }
  // Every merchant account has a default business profile.
  const profile = newProfile(m.merchant_id, { profile_name: 'default' });
  await setup.profiles.insertOne({ ...profile });
  m.default_profile = profile.profile_id;
  await setup.merchants.updateOne({ merchant_id: m.merchant_id }, { $set: { default_profile: profile.profile_id } });
  await changed(m.merchant_id);
  return m;
}

/** A new secret API key of the merchant: the key itself (`apiKey`) exists only in this answer; only its hash is stored. */
export async function createApiKey(
  setup: MerchantStore,
  merchantId: string,
  body: z.infer<typeof CreateApiKeyRequest>,
): Promise<{ key: ApiKeyDoc; apiKey: string }> {
  const apiKey = ids.secretKey();
  const key: ApiKeyDoc = {
    key_id: ids.keyId(),
    merchant_id: merchantId,
    name: body.name,
    description: body.description ?? null,
    key_hash: hashKey(apiKey),
    prefix: apiKey.slice(0, 12),
    created: new Date().toISOString(),
    expiration: futureExpiration(body.expiration),
    revoked: false,
  };
  await setup.apiKeys.insertOne({ ...key });
  return { key, apiKey };
}

/** Revoked at once: the next request with the key is refused, by every gateway (`changed` drops their cached keys). */
export async function revokeApiKey(setup: MerchantStore, k: ApiKeyDoc, changed: SetupChanged): Promise<void> {
  await setup.apiKeys.updateOne(
    { key_id: k.key_id, merchant_id: k.merchant_id },
    { $set: { revoked: true, key_hash: `revoked_${k.key_id}_${randomAlnum(8)}` } },
  );
  await changed(k.merchant_id);
}

export function accountsRouter(db: Db, keys: ApiKeys, changed: SetupChanged): Router {
  const setup = new MerchantStore(db);
  const r = scopedRouter();
  // A merchant's connector accounts: the admin key or the merchant's own secret key (as the leading switch's clients
  // call them); another merchant's are 404. Everything else here: the admin key only.
  const connectorsPath = '/account/:merchant_id/connectors';
  const ownOrAdmin = adminOrOwnSecret(keys);
  const idem = idempotency(db);
  r.use(connectorsPath, (req, res, next) =>
    ownOrAdmin(req, res, (err?: unknown) => {
      if (err) return next(err);
      res.locals.connectorAccountsAuth = true;
      next();
    }),
  );
  const adminOnly = adminAuth();
  // Already authenticated above (connector accounts): not again.
  r.use(['/accounts', '/account', '/api_keys'], (req, res, next) => (res.locals.connectorAccountsAuth ? next() : adminOnly(req, res, next)), idem);

  const merchantOr404 = async (merchantId: string) => found(await setup.merchant(merchantId), 'Merchant account');

  r.post('/accounts', async (req, res) => {
    const body = validate(CreateMerchantAccountRequest, req.body);
    res.json(merchantView(await createMerchantAccount(setup, body, changed)));
  });

  r.get('/accounts/:merchant_id', async (req, res) => res.json(merchantView(await merchantOr404(req.params.merchant_id))));

  r.post('/accounts/:merchant_id', async (req, res) => {
    const body = validate(UpdateMerchantAccountRequest, req.body);
    const m = await merchantOr404(req.params.merchant_id);
    const set: Partial<MerchantDoc> = { updated: new Date().toISOString() };
    for (const k of ['merchant_name', 'metadata', 'manual_review'] as const) if (body[k] !== undefined) (set as Record<string, unknown>)[k] = body[k];
    await setup.merchants.updateOne({ merchant_id: m.merchant_id }, { $set: set });
    await changed(m.merchant_id);
    res.json(merchantView({ ...m, ...set }));
  });

  // Deleting a merchant account ends it at once: its keys stop working, its links close, and its setup is removed;
  // workers start no new provider operation for it. Its payments stay, as the record of what happened, and its id is
  // never given again (merchant_ids), so nobody reaches them by creating it anew. Its connector accounts' credentials are retired, not destroyed, so operations already at a provider still settle.
  r.delete('/accounts/:merchant_id', async (req, res) => {
    const m = await merchantOr404(req.params.merchant_id);
    await setup.keepMerchantId(m.merchant_id);
    await setup.apiKeys.deleteMany({ merchant_id: m.merchant_id });
    await setup.merchants.deleteOne({ merchant_id: m.merchant_id });
    await Promise.all([setup.profiles.deleteMany({ merchant_id: m.merchant_id }), setup.retireConnectorAccounts(m.merchant_id)]);
    await changed(m.merchant_id);
    res.json({ merchant_id: m.merchant_id, deleted: true });
  });

  r.post('/api_keys/:merchant_id', async (req, res) => {
    const body = validate(CreateApiKeyRequest, req.body);
    const merchant = await merchantOr404(req.params.merchant_id);
    const { key, apiKey } = await createApiKey(setup, merchant.merchant_id, body);
    // The key itself is answered once, here, and stored nowhere.
    res.json({ ...keyView(key), api_key: apiKey });
  });

  r.get('/api_keys/:merchant_id/list', async (req, res) => {
    await merchantOr404(req.params.merchant_id);
    const keys = await setup.apiKeys.find({ merchant_id: req.params.merchant_id }).sort({ created: -1 }).toArray();
    res.json(keys.map(keyView));
  });

  const keyOr404 = async (merchantId: string, keyId: string) => found(await setup.apiKey(merchantId, keyId), 'API key');

  r.get('/api_keys/:merchant_id/:key_id', async (req, res) => res.json(keyView(await keyOr404(req.params.merchant_id, req.params.key_id))));

  r.post('/api_keys/:merchant_id/:key_id', async (req, res) => {
    const body = validate(UpdateApiKeyRequest, req.body);
    const k = await keyOr404(req.params.merchant_id, req.params.key_id);
    const set: Partial<ApiKeyDoc> = {};
    if (body.name != null) set.name = body.name;
    if (body.description !== undefined) set.description = body.description ?? null;
    if (body.expiration !== undefined) set.expiration = futureExpiration(body.expiration);
    if (Object.keys(set).length) {
      await setup.apiKeys.updateOne({ key_id: k.key_id, merchant_id: k.merchant_id }, { $set: set });
      // Its expiration is kept with the cached key.
      await changed(k.merchant_id);
    }
    res.json(keyView({ ...k, ...set }));
  });

  r.delete('/api_keys/:merchant_id/:key_id', async (req, res) => {
    const k = await keyOr404(req.params.merchant_id, req.params.key_id);
    await revokeApiKey(setup, k, changed);
    res.json({ merchant_id: k.merchant_id, key_id: k.key_id, revoked: true });
  });

  r.use(profilesRouter(setup, changed));
  r.use(connectorAccountsRouter(setup, changed));
  return r;
}
