// twisto: the hosted checkout (authorize: create it -> the shopper's redirect), its state read by the status sync
// (approved = authorized), the capture a full charge of the approved checkout, the void its cancellation, refunds
// against the checkout; unsigned webhooks are hints (notification.ts).
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { cancelNext, chargeNext, checkoutRequest, createCheckoutRequest, refundListRequest, refundNext, refundRequest } from './request.ts';
import { cancelOutcome, chargeOutcome, checkoutAnswerOutcome, refundOutcome, refundReadOutcome } from './response.ts';
import { parseNotification } from './notification.ts';

export const connector = defineConnector({
  manifest,
  authorize: { request: (job, c) => createCheckoutRequest(job, c), response: checkoutAnswerOutcome },
  sync: { request: (job, c) => checkoutRequest(job, c.api_key), response: checkoutAnswerOutcome },
  capture: { request: (job, c) => checkoutRequest(job, c.api_key), next: (job, c, answers) => chargeNext(job, c.api_key, answers), response: chargeOutcome },
  void: { request: (job, c) => checkoutRequest(job, c.api_key), next: (job, c, answers) => cancelNext(job, c.api_key, answers), response: cancelOutcome },
  refund: { request: (job, c) => refundListRequest(job, c.api_key), next: (job, c, answers) => refundNext(job, c.api_key, answers), response: refundOutcome },
  refundSync: { request: (job, c) => refundRequest(job, c.api_key), response: refundReadOutcome },
  notification: { parse: parseNotification },
});
