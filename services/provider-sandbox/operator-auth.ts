// The sandbox's operator routes: everything under /__sandbox (the providers' state, the call record, reset, the fault
// switch) and /sandbox (a provider's back office: raising a dispute, registering a notification URL). They answer only
// a caller with the operator key (SANDBOX_OPERATOR_KEY) in the X-Sandbox-Operator-Key header; the imitated provider
// APIs keep their own auth, as the real providers have. Without a configured key every operator call is refused.
import type { RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { failWith } from './recorder.ts';

export const OPERATOR_KEY_HEADER = 'x-sandbox-operator-key';
export const OPERATOR_PREFIXES = ['/__sandbox', '/sandbox'] as const;

/** Digests first: equal lengths for timingSafeEqual, and the key's length is not leaked by the comparison. */
const digest = (s: string) => createHash('sha256').update(s).digest();

export function operatorAuth(key: string): RequestHandler {
  const expected = key ? digest(key) : undefined;
  return (req, res, next) => {
    const given = req.header(OPERATOR_KEY_HEADER);
    if (!expected) return failWith(res, 401, 'unauthorized', 'the sandbox has no operator key: set SANDBOX_OPERATOR_KEY');
    if (!given || !timingSafeEqual(digest(given), expected)) {
      return failWith(res, 401, 'unauthorized', `an operator route: send the sandbox operator key in ${OPERATOR_KEY_HEADER}`);
    }
    next();
  };
}
