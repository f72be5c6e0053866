// avarda: Avarda Checkout 3 (see README.md). A partner token for every call (the runtime caches it in Redis per
// connector account and fetches a new one before it expires and after a 401); the purchase is initialized, the
// customer completes the embedded checkout, the status sync reads the purchase (and Avarda's callback hints at it).
import type { z } from 'zod';
import type { Connector } from '../types.ts';
import { manifest, type avardaCredentials } from './manifest.ts';
import { parseNotification } from './notification.ts';
import { activateRequest, cancelRequest, initializeRequest, readRequest, refundRequest, tokenRequest } from './request.ts';
import { activateOutcome, cancelOutcome, initializeOutcome, purchaseOutcome, refundOutcome, tokenOutcome } from './response.ts';

type Credentials = z.infer<typeof avardaCredentials>;

export const connector: Connector<Credentials> = {
  manifest,
  token: { request: tokenRequest, response: tokenOutcome },
  authorize: { request: (job, c, s) => initializeRequest(job, c, s?.access_token, s), response: initializeOutcome },
  sync: { request: (job, c, s) => readRequest(job, c, s?.access_token), response: purchaseOutcome },
  capture: { request: (job, c, s) => activateRequest(job, c, s?.access_token), response: activateOutcome },
  void: { request: (job, c, s) => cancelRequest(job, c, s?.access_token), response: cancelOutcome },
  refund: { request: (job, c, s) => refundRequest(job, c, s?.access_token), response: refundOutcome },
  notification: { parse: parseNotification },
};
