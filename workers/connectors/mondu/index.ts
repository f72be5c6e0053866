// mondu: the hosted checkout (authorize: create the order -> the buyer's redirect), read by the status sync and
// confirmed by it once the buyer authorized it,
// captures as invoices, voids as the order's cancellation, refunds as credit notes; webhooks by notification.ts.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { cancelRequest, confirmRequest, createOrderRequest, creditNoteRequest, invoiceRequest, readOrderRequest } from './request.ts';
import { cancelOutcome, creditNoteOutcome, invoiceOutcome, needsConfirm, orderAnswerOutcome, syncOutcome } from './response.ts';
import { parseNotification } from './notification.ts';

export const connector = defineConnector({
  manifest,
  authorize: { request: (job, c) => createOrderRequest(job, c.api_key), response: orderAnswerOutcome },
  // Read the order; confirm it only when it is `authorized` (issue 21: never a confirm on every sync).
  sync: {
    request: (job, c) => readOrderRequest(job, c.api_key),
    next: (job, c, answers) => (answers.length === 1 && needsConfirm(answers[0]!) ? confirmRequest(job, c.api_key) : null),
    response: (res, _job, answers) => syncOutcome(res, answers),
  },
  capture: { request: (job, c) => invoiceRequest(job, c.api_key), response: invoiceOutcome },
  void: { request: (job, c) => cancelRequest(job, c.api_key), response: cancelOutcome },
  refund: { request: (job, c) => creditNoteRequest(job, c.api_key), response: creditNoteOutcome },
  notification: { parse: parseNotification },
});
