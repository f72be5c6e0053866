// mondu: the hosted checkout (authorize: create the order -> the buyer's redirect), confirmed by the status sync,
// captures as invoices, voids as the order's cancellation, refunds as credit notes; webhooks by notification.ts.
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import { cancelRequest, confirmRequest, createOrderRequest, creditNoteRequest, invoiceRequest } from './request.ts';
import { cancelOutcome, creditNoteOutcome, invoiceOutcome, orderAnswerOutcome } from './response.ts';
import { parseNotification } from './notification.ts';

export const connector = defineConnector({
  manifest,
  authorize: { request: (job, c) => createOrderRequest(job, c.api_key), response: orderAnswerOutcome },
  sync: { request: (job, c) => confirmRequest(job, c.api_key), response: orderAnswerOutcome },
  capture: { request: (job, c) => invoiceRequest(job, c.api_key), response: invoiceOutcome },
  void: { request: (job, c) => cancelRequest(job, c.api_key), response: cancelOutcome },
  refund: { request: (job, c) => creditNoteRequest(job, c.api_key), response: creditNoteOutcome },
  notification: { parse: parseNotification },
});
