// ratepay: Ratepay's Payment API 2.0 (see README.md). An OAuth2 token (client credentials) for every call; the
// runtime caches it in Redis and fetches a new one on a 401.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { authorizeRequest, captureRequest, refundRequest, refundSyncRequest, syncNext, syncRequest, tokenRequest, voidRequest } from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, syncOutcome, tokenOutcome, voidOutcome } from './response.ts';

export const connector = defineConnector({
  manifest,
  token: { request: tokenRequest, response: tokenOutcome },
  authorize: { request: (job, c, s) => authorizeRequest(job, c, s?.access_token), response: authorizeOutcome },
  // The read; for automatic capture, the capture after it (syncNext).
  sync: { request: (job, c, s) => syncRequest(job, c, s?.access_token), next: (job, c, answers, s) => syncNext(job, c, answers, s?.access_token), response: syncOutcome },
  capture: { request: (job, c, s) => captureRequest(job, c, s?.access_token), response: captureOutcome },
  void: { request: (job, c, s) => voidRequest(job, c, s?.access_token), response: voidOutcome },
  refund: { request: (job, c, s) => refundRequest(job, c, s?.access_token), response: refundOutcome },
  refundSync: { request: (job, c, s) => refundSyncRequest(job, c, s?.access_token), response: refundOutcome },
});
