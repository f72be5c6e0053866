// zaver: the payment link (authorize: create the payment -> the payer's redirect), its status read back (sync),
// captures, the payment's cancel (void), refunds that may wait for the merchant's approval (refund, refundSync), and
// Zaver's callbacks (notification.ts). README.md describes the mapping.
import type { z } from 'zod';
import type { Connector } from '../types.ts';
import { manifest, type zaverCredentials } from './manifest.ts';
import { cancelRequest, captureRequest, createPaymentRequest, getPaymentRequest, getRefundRequest, refundRequest } from './request.ts';
import { cancelOutcome, captureOutcome, paymentAnswerOutcome, refundOutcome } from './response.ts';
import { parseNotification } from './notification.ts';

type Credentials = z.infer<typeof zaverCredentials>;

export const connector: Connector<Credentials> = {
  manifest,
  authorize: { request: (job, c, s) => createPaymentRequest(job, c.api_key, s), response: paymentAnswerOutcome },
  sync: { request: (job, c) => getPaymentRequest(job, c.api_key), response: paymentAnswerOutcome },
  capture: { request: (job, c) => captureRequest(job, c.api_key), response: captureOutcome },
  void: { request: (job, c) => cancelRequest(job, c.api_key), response: cancelOutcome },
  refund: { request: (job, c, s) => refundRequest(job, c.api_key, s), response: refundOutcome },
  refundSync: { request: (job, c) => getRefundRequest(job, c.api_key), response: refundOutcome },
  notification: { parse: parseNotification },
};
