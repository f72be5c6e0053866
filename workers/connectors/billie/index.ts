// billie: an OAuth2 client-credentials token (cached by the runtime), direct orders decided at once or after a review
// (read by the status sync, or told by Billie's order_approved / order_declined webhook), captures as invoices, voids as the order's cancellation, refunds as credit notes.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { parseNotification } from './notification.ts';
import { cancelRequest, createOrderRequest, creditNoteRequest, invoiceRequest, orderRequest, tokenRequest } from './request.ts';
import { cancelOutcome, creditNoteOutcome, invoiceOutcome, orderOutcome, tokenAnswer } from './response.ts';

export const connector = defineConnector({
  manifest,
  token: { request: tokenRequest, response: tokenAnswer },
  authorize: { request: (job, _c, s) => createOrderRequest(job, s?.access_token), response: orderOutcome },
  sync: { request: (job, _c, s) => orderRequest(job, s?.access_token), response: orderOutcome },
  capture: { request: (job, _c, s) => invoiceRequest(job, s?.access_token), response: invoiceOutcome },
  void: { request: (job, _c, s) => cancelRequest(job, s?.access_token), response: cancelOutcome },
  refund: { request: (job, _c, s) => creditNoteRequest(job, s?.access_token), response: creditNoteOutcome },
  notification: { parse: parseNotification },
});
