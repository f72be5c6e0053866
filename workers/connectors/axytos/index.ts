// axytos: invoice purchase (B2C and B2B). An authorization is a chain: POST .../order/precheck (decision U approves
// the invoice), POST .../order/confirm echoing the precheck, and for automatic capture POST .../order/reportshipping and
// .../order/createInvoice. A capture is reportshipping + createInvoice; a void cancels the order; a refund credits an
// invoice. The status sync reads GET .../order/paymentstate/{externalOrderId}.
import { maybeAnswer } from '../kit/answer.ts';
import { defineConnector } from '../kit/define.ts';
import { manifest } from './manifest.ts';
import {
  cancelRequest,
  confirmRequest,
  createInvoiceRequest,
  isAutomatic,
  paymentStateRequest,
  precheckRequest,
  refundRequest,
  reportShippingRequest,
} from './request.ts';
import { authorizeOutcome, captureOutcome, refundOutcome, syncOutcome, voidOutcome } from './response.ts';
import { PrecheckResponse } from './schemas.ts';

export const connector = defineConnector({
  manifest,
  authorize: {
    request: (job, c) => precheckRequest(job, c.api_key),
    next: (job, c, answers) => {
      switch (answers.length) {
        case 1: {
          const pre = maybeAnswer(PrecheckResponse, answers[0]!);
          return pre?.decision === 'U' ? confirmRequest(job, c.api_key, pre) : null;
        }
        case 2:
          return isAutomatic(job) ? reportShippingRequest(job, c.api_key) : null;
        case 3:
          return createInvoiceRequest(job, c.api_key);
        default:
          return null;
      }
    },
    response: authorizeOutcome,
  },
  sync: {
    request: (job, c) => paymentStateRequest(job, c.api_key),
    // An automatic capture whose invoice was not answered: shipped and invoiced now (the invoice number repeats).
    next: (job, c, answers) =>
      !isAutomatic(job)
        ? null
        : answers.length === 1
          ? reportShippingRequest(job, c.api_key)
          : answers.length === 2
            ? createInvoiceRequest(job, c.api_key)
            : null,
    response: syncOutcome,
  },
  capture: {
    request: (job, c) => reportShippingRequest(job, c.api_key),
    next: (job, c, answers) => (answers.length === 1 ? createInvoiceRequest(job, c.api_key) : null),
    response: captureOutcome,
  },
  void: { request: (job, c) => cancelRequest(job, c.api_key), response: voidOutcome },
  refund: { request: (job, c) => refundRequest(job, c.api_key), response: refundOutcome },
});
