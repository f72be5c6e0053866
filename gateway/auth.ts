// Authentication by the api-key header: the admin key (from ADMIN_API_KEY) for merchant and key management; a
// merchant's secret key for everything else. Secret keys are stored only as an HMAC under KEY_HASH_SECRET.
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Db } from 'mongodb';
import { config } from '../lib/config.ts';
import { errors } from '../lib/errors.ts';
import { MerchantCache } from '../lib/merchant-cache.ts';
import type { ApiKeyDoc } from '../lib/merchant-store.ts';

/** KEY_HASH_SECRET as a key object, made once per value (issue 24: importing the string key was most of an HMAC's cost). */
let hmacKey: { secret: string; key: KeyObject } | undefined;

export function hashKey(key: string): string {
  const secret = config.keyHashSecret;
  if (hmacKey?.secret !== secret) hmacKey = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')) };
  return createHmac('sha256', hmacKey.key).update(key).digest('hex');
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

/** What each kind of route wants in the api-key header: named in its 401, so the caller learns which key to send. */
export const WANTS = {
  admin: 'the admin key (ADMIN_API_KEY)',
  secret: "a merchant's secret key (snd_...)",
  secretOrPublishable: "a merchant's secret key (snd_...) or its publishable key (pk_...)",
  adminOrSecret: "the admin key or the merchant's own secret key (snd_...)",
} as const;

/** What a known key is: the merchant it opens, and for a secret key its id and expiry (checked on every request). */
type KnownKey = { kind: 'secret'; merchantId: string; keyId: string; expiration: string | null } | { kind: 'publishable'; merchantId: string };

/**
 * Merchants' keys by the key itself. Known keys are cached (MerchantCache: API_KEY_CACHE_MS at most, dropped at once
 * when the merchant's keys or setup change, in every gateway: gateway/merchant-setup.ts `changed`); unknown ones are
 * read every time, so that nobody fills the cache with made-up keys.
 */
export class ApiKeys {
  readonly cache: MerchantCache<KnownKey | null>;
  private readonly keys;
  private readonly merchants;

  constructor(db: Db, ttlMs = config.apiKeyCacheMs) {
    this.cache = new MerchantCache(ttlMs);
    this.keys = db.collection<ApiKeyDoc>('api_keys');
    this.merchants = db.collection<{ merchant_id: string; publishable_key: string }>('merchants');
  }

  find(key: string): Promise<KnownKey | null> {
    const owner = (k: KnownKey | null) => k?.merchantId ?? null;
    if (key.startsWith('pk_')) {
      return this.cache.get(
        `pk:${key}`,
        async () => {
          const m = await this.merchants.findOne({ publishable_key: key }, { projection: { merchant_id: 1 } });
          return m && { kind: 'publishable', merchantId: m.merchant_id };
        },
        owner,
      );
    }
    const hash = hashKey(key);
    return this.cache.get(
      `sk:${hash}`,
      async () => {
        const doc = await this.keys.findOne({ key_hash: hash });
        // A revoked key's hash is replaced (routes/accounts.ts revokeApiKey), so it is not found; `revoked` is belt and braces.
        return doc && !doc.revoked ? { kind: 'secret', merchantId: doc.merchant_id, keyId: doc.key_id, expiration: doc.expiration ?? null } : null;
      },
      owner,
    );
  }
}

const isAdminKey = (key: string | undefined) => !!key && !!config.adminApiKey && sameSecret(key, config.adminApiKey);

export function adminAuth(wants: string = WANTS.admin) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!isAdminKey(req.header('api-key'))) return next(errors.unauthorized(wants));
    next();
  };
}

/**
 * The admin key, or a merchant's own secret key (publishable keys are refused, 403). With a merchant's key, the
 * path's `:merchant_id` must be the key's merchant: another merchant's is 404, as if it did not exist. Mount it on a
 * path with `:merchant_id` (or check `req.caller` in the route, as the events router does).
 */
export function adminOrOwnSecret(keys: ApiKeys) {
  const merchant = keyAuth(keys, { wants: WANTS.adminOrSecret });
  return (req: Request, res: Response, next: NextFunction) => {
    if (isAdminKey(req.header('api-key'))) return next();
    merchant(req, res, (err?: unknown) => {
      if (err) return next(err);
      const pathMerchant = req.params.merchant_id;
      if (pathMerchant !== undefined && pathMerchant !== req.caller?.merchantId) return next(errors.notFound('Merchant account'));
      next();
    });
  };
}

/**
 * A merchant's key in the api-key header. The secret key opens every merchant endpoint. The publishable key is
 * refused (403) under a mount without `publishable: true`; under one with it, each route decides (scope.ts). One
 * 401 for a missing, malformed, unknown, revoked or expired key: no hint which.
 */
export function keyAuth(keys: ApiKeys, opts: { publishable?: boolean; wants?: string } = {}) {
  const wants = opts.wants ?? (opts.publishable ? WANTS.secretOrPublishable : WANTS.secret);
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const key = req.header('api-key');
      if (!key || key.length > 256) return next(errors.unauthorized(wants));
      const k = await keys.find(key);
      if (!k || (k.kind === 'secret' && k.expiration && Date.parse(k.expiration) <= Date.now())) return next(errors.unauthorized(wants));
      if (k.kind === 'publishable') {
        if (!opts.publishable) return next(errors.forbidden('This endpoint needs the secret key; the publishable key cannot call it'));
        req.caller = { merchantId: k.merchantId, kind: 'publishable', keyId: key.slice(0, 16) };
      } else {
        req.caller = { merchantId: k.merchantId, kind: 'secret', keyId: k.keyId };
      }
      req.merchantId = req.caller.merchantId;
      next();
    } catch (err) {
      next(err);
    }
  };
}
