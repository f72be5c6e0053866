// payla: PAYONE Secured Invoice (Payla) through PAYONE's Server API (see README.md). Every operation is one
// form-encoded call answered at once; PAYONE has no status read, so there is no sync flow.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { notification } from './notification.ts';
import { authorizeRequest, captureRequest, refundRequest, voidRequest } from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, voidOutcome } from './response.ts';

export const connector = defineConnector({
  manifest,
  authorize: { request: authorizeRequest, response: authorizeOutcome },
  capture: { request: captureRequest, response: captureOutcome },
  void: { request: voidRequest, response: voidOutcome },
  refund: { request: refundRequest, response: refundOutcome },
  notification,
});
