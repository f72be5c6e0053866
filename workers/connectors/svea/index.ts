// svea: Svea Checkout (the customer completes the order in Svea's checkout) and the Payment Admin API (deliveries,
// cancels, credits; deliveries and credits run as tasks polled until done). README.md describes the mapping.
import type { z } from 'zod';
import { maybeAnswer } from '../kit/answer.ts';
import { defineConnector } from '../kit/define.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { manifest, type sveaCredentials } from './manifest.ts';
import {
  adminOrderRequest,
  authorizeRequest,
  checkoutOrderRequest,
  recurringRequest,
  deliverRequests,
  refundRequest,
  refundSyncRequest,
  taskRequest,
  voidRequest,
} from './request.ts';
import { authorizeOutcome, captureOutcome, recurringOutcome, refundOutcome, refundSyncOutcome, syncOutcome, taskStep, voidOutcome } from './response.ts';
import { AdminOrder, CheckoutOrder } from './schemas.ts';
import { parseNotification } from './notification.ts';

type Credentials = z.infer<typeof sveaCredentials>;
const isUrl = (s: string | null | undefined): s is string => !!s && /^https?:\/\//.test(s);
/** After a task poll: a finished task that names its resource in the body (its 303 not followed) -> fetch it. */
const resourceOf = (c: Credentials, res: ProviderResponse | undefined) => {
  const s = res ? taskStep(res) : undefined;
  return s?.step === 'fetch' ? taskRequest(c, s.uri) : null;
};

export const connector = defineConnector({
  manifest,
  // A recurring charge (job.mandate kind 'recurring') is an order on the first order's RecurringToken, without the
  // customer; every other authorize creates a checkout order (a recurring one when it sets up a mandate).
  authorize: {
    request: (job, c, session) => (job.mandate?.kind === 'recurring' ? recurringRequest(job, c, session) : authorizeRequest(job, c, session)),
    response: (res, job) => (job.mandate?.kind === 'recurring' ? recurringOutcome(res) : authorizeOutcome(res)),
  },
  sync: {
    request: checkoutOrderRequest,
    // A Final checkout order: whether Svea lets it be delivered yet (the admin order's actions).
    next: (job, c, answers, session) => {
      if (answers.length !== 1) return null;
      const o = maybeAnswer(CheckoutOrder, answers[0]!);
      return o?.Status === 'Final' ? adminOrderRequest(job, c, session) : null;
    },
    response: syncOutcome,
  },
  capture: {
    // A capture's status sync polls its task (the pending capture's id is the task's Location).
    request: (job, c, session) =>
      job.mode === 'sync' && isUrl(job.connector_transaction_id) ? taskRequest(c, job.connector_transaction_id) : adminOrderRequest(job, c, session),
    next: (job, c, answers, session) => {
      if (job.mode === 'sync') return answers.length === 1 && isUrl(job.connector_transaction_id) ? resourceOf(c, answers[0]) : null;
      if (answers.length === 1) {
        const o = maybeAnswer(AdminOrder, answers[0]!);
        if (!o) return null;
        const rows = o.OrderRows.filter((r) => !r.IsCancelled && r.Actions.includes('CanDeliverRow'));
        return deliverRequests.delivery(job, c, session, rows);
      }
      const location = answers[1]?.headers?.location;
      if (answers.length === 2) return isUrl(location) ? taskRequest(c, location) : null;
      return answers.length === 3 ? resourceOf(c, answers[2]) : null;
    },
    response: captureOutcome,
  },
  void: { request: voidRequest, response: voidOutcome },
  refund: {
    request: refundRequest,
    next: (_job, c, answers) => {
      const location = answers[0]?.headers?.location;
      if (answers.length === 1) return isUrl(location) ? taskRequest(c, location) : null;
      return answers.length === 2 ? resourceOf(c, answers[1]) : null;
    },
    response: refundOutcome,
  },
  refundSync: {
    request: refundSyncRequest,
    next: (_job, c, answers) => (answers.length === 1 ? resourceOf(c, answers[0]) : null),
    response: refundSyncOutcome,
  },
  notification: { parse: parseNotification },
});
