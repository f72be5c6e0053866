// unzer: Unzer Invoice (paylater-invoice). An authorization is a chain: POST /v1/types/paylater-invoice, POST
// /v1/customers, POST /v2/baskets, POST /v1/payments/authorize, and for automatic capture POST .../charges; the
// status sync reads GET /v1/payments/{id} (and charges an automatic capture once the review approved it). Unzer's
// unsigned webhooks are hints that start such a sync (notification.ts).
import { defineConnector } from '../kit/define.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { manifest } from './manifest.ts';
import { parseNotification } from './notification.ts';
import {
  authorizeRequest,
  basketRequest,
  chargeRequest,
  customerRequest,
  isAutomatic,
  paymentRequest,
  refundRequest,
  refundSyncRequest,
  typeRequest,
  voidRequest,
} from './request.ts';
import { authorizeOutcome, awaitsCharge, captureOutcome, refundOutcome, syncOutcome, transactionOf, voidOutcome } from './response.ts';
import { UnzerPayment, UnzerResource } from './schemas.ts';
import { maybeAnswer, readAnswer } from '../kit/answer.ts';

/** The id of a resource the chain made (type, customer, basket); an answer without one is an unknown outcome. */
const idOf = (res: ProviderResponse, what: string) => readAnswer(UnzerResource, res, `unzer ${what}`).id;

export const connector = defineConnector({
  manifest,
  authorize: {
    request: (job, c) => typeRequest(job, c.api_key),
    next: (job, c, answers) => {
      switch (answers.length) {
        case 1:
          return customerRequest(job, c.api_key);
        case 2:
          return basketRequest(job, c.api_key);
        case 3:
          return authorizeRequest(job, c.api_key, {
            typeId: idOf(answers[0]!, 'type'),
            customerId: idOf(answers[1]!, 'customer'),
            basketId: idOf(answers[2]!, 'basket'),
          });
        case 4: {
          // Automatic capture: an approved authorization is charged at once.
          const auth = transactionOf(answers[3]!);
          if (!isAutomatic(job) || 'error' in auth || !auth.isSuccess || !auth.resources?.paymentId) return null;
          return chargeRequest(job, c.api_key, auth.resources.paymentId);
        }
        default:
          return null;
      }
    },
    response: authorizeOutcome,
  },
  sync: {
    request: (job, c) => paymentRequest(job, c.api_key),
    // A review or customer step approved later: an automatic capture is charged now.
    next: (job, c, answers) => {
      if (answers.length !== 1 || !isAutomatic(job)) return null;
      const p = maybeAnswer(UnzerPayment, answers[0]!);
      return p && awaitsCharge(p) ? chargeRequest(job, c.api_key, p.id) : null;
    },
    response: syncOutcome,
  },
  capture: { request: (job, c) => chargeRequest(job, c.api_key, job.connector_transaction_id!), response: captureOutcome },
  void: { request: (job, c) => voidRequest(job, c.api_key), response: voidOutcome },
  refund: { request: (job, c) => refundRequest(job, c.api_key), response: refundOutcome },
  refundSync: { request: (job, c) => refundSyncRequest(job, c.api_key), response: refundOutcome },
  notification: { parse: parseNotification },
});
