// riverty: Riverty's eCommerce API v3 (authorize with strong customer authentication, captures as invoices, voids,
// refunds per capture, notifications). The manifest lists the flows it has; README.md describes the mapping.
import type { z } from 'zod';
import type { Connector } from '../types.ts';
import { manifest, type rivertyCredentials } from './manifest.ts';
import { authorizeRequest, captureRequest, refundRequest, syncRequest, voidRequest } from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, syncOutcome, voidOutcome } from './response.ts';
import { parseNotification } from './notification.ts';

type Credentials = z.infer<typeof rivertyCredentials>;

export const connector: Connector<Credentials> = {
  manifest,
  authorize: { request: (job, c, s) => authorizeRequest(job, c.api_key, s), response: authorizeOutcome },
  sync: { request: (job, c) => syncRequest(job, c.api_key), response: syncOutcome },
  capture: { request: (job, c) => captureRequest(job, c.api_key), response: captureOutcome },
  void: { request: (job, c) => voidRequest(job, c.api_key), response: voidOutcome },
  refund: { request: (job, c) => refundRequest(job, c.api_key), response: refundOutcome },
  notification: { parse: parseNotification },
};
