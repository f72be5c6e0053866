// riverty: Riverty's eCommerce API v3 (authorize with strong customer authentication, captures as invoices, voids,
// refunds per capture, webhooks as hints). The manifest lists the flows it has; README.md its Sources table.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { authorizeRequest, captureRequest, refundRequest, syncRequest, voidRequest } from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, syncOutcome, voidOutcome } from './response.ts';
import { parseNotification } from './notification.ts';

export const connector = defineConnector({
  manifest,
  authorize: { request: (job, c, s) => authorizeRequest(job, c.api_key, s), response: authorizeOutcome },
  sync: { request: (job, c) => syncRequest(job, c.api_key), response: syncOutcome },
  capture: { request: (job, c) => captureRequest(job, c.api_key), response: captureOutcome },
  void: { request: (job, c) => voidRequest(job, c.api_key), response: voidOutcome },
  refund: { request: (job, c) => refundRequest(job, c.api_key), response: refundOutcome },
  notification: { parse: parseNotification },
});
