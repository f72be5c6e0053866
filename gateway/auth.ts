// Authentication by the api-key header: the admin key (from ADMIN_API_KEY) for merchant and key management; a
// merchant's secret key for everything else. Secret keys are stored only as an HMAC under KEY_HASH_SECRET.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Collection } from 'mongodb';
import { config } from '../lib/config.ts';
import { errors } from '../lib/errors.ts';

export interface ApiKeyDoc {
  key_id: string;
  merchant_id: string;
  name: string;
  description: string | null;
  key_hash: string;
  prefix: string;
  created: string;
  expiration: string | null;
  revoked: boolean;
}

export function hashKey(key: string): string {
  return createHmac('sha256', config.keyHashSecret).update(key).digest('hex');
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

declare module 'express-serve-static-core' {
  interface Request {
    merchantId?: string;
  }
}

export function adminAuth() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const key = req.header('api-key');
    if (!key || !config.adminApiKey || !sameSecret(key, config.adminApiKey)) return next(errors.unauthorized());
    next();
  };
}

export function merchantAuth(keys: Collection<ApiKeyDoc>) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const key = req.header('api-key');
    // One answer for a missing, malformed, unknown, revoked or expired key: no hint which.
    if (!key || key.length > 256) return next(errors.unauthorized());
    const doc = await keys.findOne({ key_hash: hashKey(key) });
    if (!doc || doc.revoked || (doc.expiration && Date.parse(doc.expiration) <= Date.now())) return next(errors.unauthorized());
    req.merchantId = doc.merchant_id;
    next();
  };
}
