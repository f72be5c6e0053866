// avarda: Avarda Checkout 3 (see README.md). A partner token for every call (the runtime caches it in Redis per
// connector account and fetches a new one before it expires and after a 401); the purchase is initialized, the
// customer completes the embedded checkout, the status sync reads the purchase (and Avarda's callback hints at it).
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { parseNotification } from './notification.ts';
import { activateRequest, cancelRequest, initializeRequest, readRequest, recurringRequest, refundRequest, tokenRequest } from './request.ts';
import { activateOutcome, cancelOutcome, initializeOutcome, purchaseOutcome, recurringOutcome, refundOutcome, tokenOutcome } from './response.ts';

export const connector = defineConnector({
  manifest,
  token: { request: tokenRequest, response: tokenOutcome },
  // A recurring charge (job.mandate kind 'recurring') charges the first purchase's token off-session; every other
  // authorize initializes a purchase (offering recurring payments when it sets up a mandate).
  authorize: {
    request: (job, c, s) => (job.mandate?.kind === 'recurring' ? recurringRequest(job, c, s?.access_token) : initializeRequest(job, c, s?.access_token, s)),
    response: (res, job, answers, s) => (job.mandate?.kind === 'recurring' ? recurringOutcome(res) : initializeOutcome(res, job, answers, s)),
  },
  sync: { request: (job, c, s) => readRequest(job, c, s?.access_token), response: purchaseOutcome },
  capture: { request: (job, c, s) => activateRequest(job, c, s?.access_token), response: activateOutcome },
  void: { request: (job, c, s) => cancelRequest(job, c, s?.access_token), response: cancelOutcome },
  refund: { request: (job, c, s) => refundRequest(job, c, s?.access_token), response: refundOutcome },
  notification: { parse: parseNotification },
});
