// The Idempotency-Key header, on every POST (ARCHITECTURE.md): the same key with the same request within 24 h
// replays the first successful answer; with a different request -> 409; while the first is still running -> 409 (retry
// later). Keys are per merchant and bound to the endpoint (method and full path) of their first request: the same key
// on another endpoint -> 409 saying so. A unique insert claims a key, so two concurrent requests cannot both run.
// Records expire at `expires_at`: MongoDB's TTL index deletes them (lib/mongo.ts); FerretDB 1.x has no TTL index, so
// an expired record is treated as absent here and expired records are deleted now and then by the gateway itself.
import type { NextFunction, Request, Response } from 'express';
import type { Collection, Db } from 'mongodb';
import { errors } from '../lib/errors.ts';
import { log } from '../lib/log.ts';
import { isDuplicateKey } from '../lib/mongo.ts';
import { open, seal } from '../lib/secret-box.ts';
import { idempotencyScope } from '../lib/ids.ts';
import { config } from '../lib/config.ts';
import { requestHash } from '../domain/intent.ts';

const TTL_MS = 24 * 3600_000;
/**
 * A claim still "running" after this long belongs to a request that died: the key may be used again. Every request
 * waits at most for Begin's retries and the outcome, so a live one is done by then. Running the request again is safe:
 * the ids it creates derive from the key (lib/ids.ts requestId), so it finds what the first run created.
 */
const abandonedMs = () => config.beginRetryMs + config.confirmWaitMs + 5_000;
/** How often a gateway deletes expired records itself (where no TTL index does it). */
const PURGE_EVERY_MS = 10 * 60_000;

export interface IdempotencyDoc {
  _id: string;
  request_hash: string;
  /** Method and full path, e.g. `POST /payments/list`; records written before issue 19 have none. */
  endpoint?: string;
  state: 'running' | 'done';
  status: number | null;
  /** The answer to replay, sealed: answers can carry secrets (a new API key, a profile's hash key). */
  body: string | null;
  created_at: number;
  /** When the record stops counting; the TTL index's field. */
  expires_at: Date;
}

/**
 * The endpoint a key is bound to: the method and the full path as the merchant sent it (routing is strict and case
 * sensitive, so one route has one spelling). The query string is no part of it: no POST route reads one.
 * The request hash (which the ids a request creates derive from, lib/ids.ts requestId) keeps the router-relative
 * path it always had, so those ids stay what they were; a key on another endpoint is refused before that matters.
 */
const endpointOf = (req: Request) => `${req.method} ${req.originalUrl.split('?', 1)[0]}`;

/** Expired: past expires_at (records written before it existed: 24 h after created_at). */
const expired = (d: IdempotencyDoc, now: number) => (d.expires_at ? d.expires_at.getTime() <= now : now - d.created_at > TTL_MS);

export function idempotency(db: Db) {
  const coll: Collection<IdempotencyDoc> = db.collection<IdempotencyDoc>('idempotency_keys');
  let lastPurge = 0;
  const purge = (now: number) => {
    if (now - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now;
    coll.deleteMany({ expires_at: { $lte: new Date(now) } }).catch((err) => log.warn('idempotency purge failed', { err }));
  };
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.header('idempotency-key');
    if (req.method !== 'POST' || key === undefined) return next();
    if (key.length < 1 || key.length > 255) return next(errors.invalid('Idempotency-Key', 'must be 1 to 255 characters'));
    const owner = req.caller ? (req.caller.kind === 'secret' ? req.caller.merchantId : `${req.caller.merchantId}:client`) : 'admin';
    const id = `${owner}:${key}`;
    const hash = requestHash({ method: req.method, path: req.path, body: req.body ?? null });
    const endpoint = endpointOf(req);
    const now = Date.now();
    purge(now);

    const claim = () =>
      coll.insertOne({
        _id: id,
        request_hash: hash,
        endpoint,
        state: 'running',
        status: null,
        body: null,
        created_at: now,
        expires_at: new Date(now + TTL_MS),
      });
    try {
      await claim();
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const seen = await coll.findOne({ _id: id });
      // Bound to its endpoint until it expires, even if its request died: that request may still be retried.
      if (seen?.endpoint && seen.endpoint !== endpoint && !expired(seen, now)) {
        return next(
          errors.duplicate(
            `This Idempotency-Key was used on another endpoint (${seen.endpoint}); a key serves one endpoint only: use a new key for ${endpoint}`,
            'Idempotency-Key',
          ),
        );
      }
      const stale = seen && (expired(seen, now) || (seen.state === 'running' && now - seen.created_at > abandonedMs()));
      if (!seen || stale) {
        if (seen) await coll.deleteOne({ _id: id, created_at: seen.created_at });
        try {
          await claim();
        } catch (e) {
          if (isDuplicateKey(e)) return next(errors.busy('A request with this Idempotency-Key is still being processed; retry later'));
          throw e;
        }
      } else if (seen.request_hash !== hash) {
        return next(errors.duplicate('This Idempotency-Key was used with a different request', 'Idempotency-Key'));
      } else if (seen.state === 'running') {
        return next(errors.busy('A request with this Idempotency-Key is still being processed; retry later'));
      } else {
        res.setHeader('idempotent-replayed', 'true');
        return res.status(seen.status!).json(seen.body === null ? null : JSON.parse(open(seen.body, id)));
      }
    }

    // Record a success; a refusal or a server error releases the key (a refused request changes nothing) so that a
    // retry runs again.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const done =
        res.statusCode >= 400
          ? coll.deleteOne({ _id: id, created_at: now })
          : coll.updateOne({ _id: id, created_at: now }, { $set: { state: 'done', status: res.statusCode, body: seal(JSON.stringify(body ?? null), id) } });
      done.catch(() => undefined).finally(() => json(body));
      return res;
    };
    idempotencyScope.run({ claim: id, requestHash: hash }, () => next());
  };
}
