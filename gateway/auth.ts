// Authentication by the api-key header: the admin key (from ADMIN_API_KEY) for merchant and key management; a
// merchant's secret key for everything else. Secret keys are stored only as an HMAC under KEY_HASH_SECRET.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Db } from 'mongodb';
import { config } from '../lib/config.ts';
import { errors } from '../lib/errors.ts';
import type { ApiKeyDoc } from '../lib/merchant-store.ts';

export function hashKey(key: string): string {
  return createHmac('sha256', config.keyHashSecret).update(key).digest('hex');
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Who is calling: a merchant's secret key, or its publishable key (client-side, limited to one payment). */
export interface Caller {
  merchantId: string;
  kind: 'secret' | 'publishable';
  /** The key's id (secret) or the publishable key's prefix: what rate limits count by. */
  keyId: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    merchantId?: string;
    caller?: Caller;
  }
}

export function adminAuth() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const key = req.header('api-key');
    if (!key || !config.adminApiKey || !sameSecret(key, config.adminApiKey)) return next(errors.unauthorized());
    next();
  };
}

/**
 * A merchant's key in the api-key header. The secret key opens every merchant endpoint. The publishable key is
 * refused (403) under a mount without `publishable: true`; under one with it, each route decides (scope.ts). One
 * 401 for a missing, malformed, unknown, revoked or expired key: no hint which.
 */
export function keyAuth(db: Db, opts: { publishable?: boolean } = {}) {
  const keys = db.collection<ApiKeyDoc>('api_keys');
  const merchants = db.collection<{ merchant_id: string; publishable_key: string }>('merchants');
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const key = req.header('api-key');
      if (!key || key.length > 256) return next(errors.unauthorized());
      if (key.startsWith('pk_')) {
        const m = await merchants.findOne({ publishable_key: key }, { projection: { merchant_id: 1 } });
        if (!m) return next(errors.unauthorized());
        if (!opts.publishable) return next(errors.forbidden('This endpoint needs the secret key; the publishable key cannot call it'));
        req.caller = { merchantId: m.merchant_id, kind: 'publishable', keyId: key.slice(0, 16) };
      } else {
        const doc = await keys.findOne({ key_hash: hashKey(key) });
        if (!doc || doc.revoked || (doc.expiration && Date.parse(doc.expiration) <= Date.now())) return next(errors.unauthorized());
        req.caller = { merchantId: doc.merchant_id, kind: 'secret', keyId: doc.key_id };
      }
      req.merchantId = req.caller.merchantId;
      next();
    } catch (err) {
      next(err);
    }
  };
}
