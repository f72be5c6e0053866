// ratepay: Ratepay's Payment API 2.0 (see README.md). An OAuth2 token (client credentials) for every call; the
// runtime caches it in Redis and fetches a new one on a 401.
import type { z } from 'zod';
import type { Connector } from '../types.ts';
import { manifest, type ratepayCredentials } from './manifest.ts';
import { authorizeRequest, captureRequest, refundRequest, refundSyncRequest, syncRequest, tokenRequest, voidRequest } from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, syncOutcome, tokenOutcome, voidOutcome } from './response.ts';

type Credentials = z.infer<typeof ratepayCredentials>;

export const connector: Connector<Credentials> = {
  manifest,
  token: { request: tokenRequest, response: tokenOutcome },
  authorize: { request: (job, c, s) => authorizeRequest(job, c, s?.access_token, s), response: authorizeOutcome },
  sync: { request: (job, c, s) => syncRequest(job, c, s?.access_token, s), response: syncOutcome },
  capture: { request: (job, c, s) => captureRequest(job, c, s?.access_token, s), response: captureOutcome },
  void: { request: (job, c, s) => voidRequest(job, c, s?.access_token, s), response: voidOutcome },
  refund: { request: (job, c, s) => refundRequest(job, c, s?.access_token, s), response: refundOutcome },
  refundSync: { request: (job, c, s) => refundSyncRequest(job, c, s?.access_token, s), response: refundOutcome },
};
