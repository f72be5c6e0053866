// service_test: our own test connector, speaking to the provider sandbox's service_test API; the kit's worked example
// (kit/README.md). The manifest (manifest.ts) is the data half of its definition; here are its flows, each a request
// transformer (request.ts) and a response transformer (response.ts, reading schemas.ts), typed by the manifest's
// credentials ({ api_key }). Its notifications are parsed by notification.ts.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { authorizeRequest, captureRequest, incrementRequest, refundRequest, refundSyncRequest, syncRequest, voidRequest } from './request.ts';
import { captureOutcome, incrementOutcome, paymentOutcome, refundOutcome, voidOutcome } from './response.ts';
import { parseNotification } from './notification.ts';

export const connector = defineConnector({
  manifest,
  authorize: { request: (job, c, session) => authorizeRequest(job, c.api_key, session), response: paymentOutcome },
  sync: { request: (job, c) => syncRequest(job, c.api_key), response: paymentOutcome },
  capture: { request: (job, c) => captureRequest(job, c.api_key), response: captureOutcome },
  void: { request: (job, c) => voidRequest(job, c.api_key), response: voidOutcome },
  incrementalAuthorization: { request: (job, c) => incrementRequest(job, c.api_key), response: incrementOutcome },
  refund: { request: (job, c) => refundRequest(job, c.api_key), response: refundOutcome },
  refundSync: { request: (job, c) => refundSyncRequest(job, c.api_key), response: refundOutcome },
  notification: { parse: parseNotification },
});
