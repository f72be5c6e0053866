// ratepay: Ratepay's Payment API 2.0 (see README.md). An OAuth2 token (client credentials) for every call; the
// runtime caches it in Redis and fetches a new one on a 401. Every call is told where it runs by its Session.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { authorizeRequest, captureRequest, refundRequest, refundSyncRequest, syncNext, syncRequest, tokenRequest, voidRequest } from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, syncOutcome, tokenOutcome, voidOutcome } from './response.ts';

export const connector = defineConnector({
  manifest,
  token: { request: tokenRequest, response: tokenOutcome },
  authorize: { request: authorizeRequest, response: authorizeOutcome },
  // The read; for automatic capture, the capture after it (syncNext).
  sync: { request: syncRequest, next: syncNext, response: syncOutcome },
  capture: { request: captureRequest, response: captureOutcome },
  void: { request: voidRequest, response: voidOutcome },
  refund: { request: refundRequest, response: refundOutcome },
  refundSync: { request: refundSyncRequest, response: refundOutcome },
});
