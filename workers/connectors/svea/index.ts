// svea: Svea Checkout (the customer completes the order in Svea's checkout) and the Payment Admin API (deliveries,
// cancels, credits; deliveries and credits run as tasks polled until done). README.md describes the mapping.
import type { z } from 'zod';
import type { Connector } from '../types.ts';
import { manifest, type sveaCredentials } from './manifest.ts';
import {
  adminOrderRequest, authorizeRequest, checkoutOrderRequest, deliverRequests, refundRequest, refundSyncRequest, taskRequest, voidRequest,
} from './request.ts';
import { AdminOrder, authorizeOutcome, captureOutcome, CheckoutOrder, refundOutcome, refundSyncOutcome, syncOutcome, voidOutcome } from './response.ts';
import { parseNotification } from './notification.ts';

type Credentials = z.infer<typeof sveaCredentials>;
const isUrl = (s: string | null | undefined): s is string => !!s && /^https?:\/\//.test(s);

export const connector: Connector<Credentials> = {
  manifest,
  authorize: { request: authorizeRequest, response: authorizeOutcome },
  sync: {
    request: checkoutOrderRequest,
    // A Final checkout order: whether Svea lets it be delivered yet (the admin order's actions).
    next: (job, c, answers, s) => {
      if (answers.length !== 1) return null;
      const o = CheckoutOrder.safeParse(answers[0]!.body);
      return o.success && o.data.Status === 'Final' ? adminOrderRequest(job, c, s) : null;
    },
    response: syncOutcome,
  },
  capture: {
    // A capture's status sync polls its task (the pending capture's id is the task's Location).
    request: (job, c, s) => (job.mode === 'sync' && isUrl(job.connector_transaction_id) ? taskRequest(c, job.connector_transaction_id) : adminOrderRequest(job, c, s)),
    next: (job, c, answers, s) => {
      if (job.mode === 'sync') return null;
      if (answers.length === 1) {
        const o = AdminOrder.safeParse(answers[0]!.body);
        if (!o.success) return null;
        const rows = o.data.OrderRows.filter((r) => !r.IsCancelled && r.Actions.includes('CanDeliverRow'));
        return deliverRequests.delivery(job, c, rows, s);
      }
      const location = answers[1]?.headers?.location;
      return answers.length === 2 && isUrl(location) ? taskRequest(c, location) : null;
    },
    response: captureOutcome,
  },
  void: { request: voidRequest, response: voidOutcome },
  refund: {
    request: refundRequest,
    next: (_job, c, answers) => {
      const location = answers[0]?.headers?.location;
      return answers.length === 1 && isUrl(location) ? taskRequest(c, location) : null;
    },
    response: refundOutcome,
  },
  refundSync: { request: refundSyncRequest, response: refundSyncOutcome },
  notification: { parse: parseNotification },
};
