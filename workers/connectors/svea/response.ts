// Svea's answers -> outcomes, parsed with Svea's own shapes (PascalCase JSON). Errors are {Code, ErrorMessage}; a
// declined credit check is no API error (the customer cannot finish the checkout, the order ends Cancelled).
// Deliveries and credits are asynchronous: 202 with the Location of a task, {Id, Status} while it runs, 303 to the
// new delivery or credit once done (fetch follows it).
import { z } from 'zod';
import type { Outcome } from '../../../domain/payment.ts';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { unifiedFor } from './errors.ts';

export const SveaError = z.object({ Code: z.union([z.number(), z.string()]).nullish(), ErrorMessage: z.string().nullish() });

const Id = z.union([z.number().int(), z.string().min(1)]).transform(String);
export const CheckoutOrder = z.object({
  OrderId: Id,
  Status: z.enum(['Created', 'Final', 'Cancelled']),
  ClientOrderNumber: z.string().nullish(),
  Currency: z.string(),
  CountryCode: z.string().nullish(),
  Gui: z.object({ Layout: z.string().nullish(), Snippet: z.string() }).nullish(),
  PaymentType: z.string().nullish(),
  SveaWillBuyOrder: z.boolean().nullish(),
});
const AdminRow = z.object({
  OrderRowId: z.number().int(), Name: z.string().nullish(), UnitPrice: z.number().int(), Quantity: z.number().int(),
  IsCancelled: z.boolean().default(false), Actions: z.array(z.string()).default([]),
});
export const SveaDelivery = z.object({
  Id, InvoiceId: z.union([z.number(), z.string()]).nullish(), DeliveryAmount: z.number().int(), CreditedAmount: z.number().int().default(0),
  Credits: z.array(z.unknown()).default([]), OrderRows: z.array(AdminRow).default([]), Actions: z.array(z.string()).default([]),
});
export const AdminOrder = z.object({
  Id, Currency: z.string(), OrderStatus: z.enum(['Open', 'Delivered', 'Cancelled', 'Failed']), PaymentType: z.string().nullish(),
  OrderAmount: z.number().int(), CancelledAmount: z.number().int().default(0), OrderRows: z.array(AdminRow).default([]),
  Deliveries: z.array(SveaDelivery).default([]), Actions: z.array(z.string()).default([]),
});
/** UNVERIFIED beyond {Id, Status: InProgress}: the task's other statuses. */
export const SveaTask = z.object({ Id, Status: z.string() });
/** UNVERIFIED shape: the credit a finished credit task leads to (the sheet lists Amount, OrderRows, Actions; Id assumed). */
export const SveaCredit = z.object({ Id, Amount: z.number().int(), OrderRows: z.array(z.unknown()).default([]), Actions: z.array(z.string()).default([]) });

/** An error answer in our terms: Svea's Code and ErrorMessage; a body not Svea's still names the status. */
export function errorFields(res: ProviderResponse) {
  const e = SveaError.safeParse(res.body);
  const code = e.success && e.data.Code != null ? String(e.data.Code) : `http_${res.status}`;
  const message = (e.success && e.data.ErrorMessage) || res.headers?.errormessage || `HTTP ${res.status}`;
  return { error_code: code, error_message: message, ...unifiedFor(code, res.status) };
}

/** The checkout iframe's page: the src of the snippet's iframe (the customer step's URL). */
export function checkoutUrlOf(snippet: string | null | undefined): string | undefined {
  return /<iframe[^>]*\ssrc="([^"]+)"/i.exec(snippet ?? '')?.[1]?.replace(/&amp;/g, '&');
}

const CANCELLED = { error_code: 'Cancelled', error_message: 'The checkout order was cancelled: the customer did not complete Svea Checkout', ...unifiedFor('Cancelled') };

/** A checkout order: Created waits for the customer (at the checkout page), Cancelled is over, Final goes on to the admin order. */
function checkoutOutcome(o: z.infer<typeof CheckoutOrder>): Outcome {
  const ids = { connector_transaction_id: o.OrderId, ...(o.ClientOrderNumber ? { connector_reference_id: o.ClientOrderNumber } : {}) };
  if (o.Status === 'Cancelled') return { kind: 'DECLINED', ...ids, ...CANCELLED };
  if (o.Status === 'Final') return { kind: 'PENDING', ...ids };
  const url = checkoutUrlOf(o.Gui?.Snippet);
  return url ? { kind: 'CUSTOMER_ACTION', ...ids, redirect_url: url } : { kind: 'PENDING', ...ids };
}

/** authorize: the new checkout order (or the one the clientOrderNumber already names). */
export function authorizeOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'DECLINED', ...errorFields(res) };
  return checkoutOutcome(readAnswer(CheckoutOrder, res, 'svea'));
}

/**
 * sync: the checkout order, and for a Final one the admin order: deliverable (CanDeliverOrder) is authorized; Open
 * without it is still being checked by Svea (pending); Cancelled or Failed is declined.
 */
export function syncOutcome(res: ProviderResponse, _job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  const first = answers[0] ?? res;
  if (first.status >= 400) return { kind: 'DECLINED', ...errorFields(first) };
  const checkout = readAnswer(CheckoutOrder, first, 'svea');
  const base = checkoutOutcome(checkout);
  if (checkout.Status !== 'Final' || answers.length < 2) return base;
  if (res.status >= 400) return { kind: 'PENDING', connector_transaction_id: checkout.OrderId };
  const o = readAnswer(AdminOrder, res, 'svea');
  const ids = { connector_transaction_id: checkout.OrderId, ...(checkout.ClientOrderNumber ? { connector_reference_id: checkout.ClientOrderNumber } : {}) };
  switch (o.OrderStatus) {
    case 'Open': return o.Actions.includes('CanDeliverOrder') || o.Actions.includes('CanDeliverOrderPartially') ? { kind: 'AUTHORIZED', ...ids } : { kind: 'PENDING', ...ids };
    case 'Delivered': return { kind: 'AUTHORIZED', ...ids };
    default: return { kind: 'DECLINED', ...ids, error_code: o.OrderStatus, error_message: `Svea's order is ${o.OrderStatus}`, ...unifiedFor('Cancelled') };
  }
}

const RUNNING = new Set(['InProgress', 'Pending', 'Queued', 'NotStarted']);

/** A task's answer: still running (pending, known by its Location), failed, or the finished resource it led to. */
export function taskOutcome<T>(res: ProviderResponse, location: string, done: z.ZodType<T>, finished: (t: T) => Outcome): Outcome {
  const task = SveaTask.safeParse(res.body);
  if (task.success && !done.safeParse(res.body).success) {
    if (RUNNING.has(task.data.Status)) return { kind: 'PENDING', connector_transaction_id: location };
    if (task.data.Status === 'Failed') return { kind: 'FAILED', error_code: 'TaskFailed', error_message: `Svea's task ${task.data.Id} failed`, ...unifiedFor('TaskFailed') };
  }
  return finished(readAnswer(done, res, 'svea'));
}

const delivered = (d: z.infer<typeof SveaDelivery>): Outcome => ({ kind: 'CAPTURED', connector_transaction_id: d.Id });
const credited = (c: z.infer<typeof SveaCredit>): Outcome => ({ kind: 'REFUNDED', connector_transaction_id: c.Id });

/**
 * capture (execute): answers are [admin order, 202 delivery, task]. Fewer: no rows add up to the amount, or the
 * delivery was refused. A running task leaves the capture pending; its Location is the capture's id until done.
 */
export function captureOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (job.mode === 'sync') return captureSyncOutcome(res, job);
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  if (answers.length === 1) {
    const o = readAnswer(AdminOrder, res, 'svea');
    return {
      kind: 'FAILED', error_code: 'no_matching_rows', ...unifiedFor('40001'),
      error_message: `No rows of Svea order ${o.Id} left to deliver add up to ${job.amount} (Svea delivers whole rows and units)`,
    };
  }
  const location = answers[1]?.headers?.location;
  if (answers.length === 2 || !location) throw new UnexpectedAnswer(`svea: the delivery answered HTTP ${answers[1]?.status} without a task Location`);
  return taskOutcome(res, location, SveaDelivery, delivered);
}

/** capture (sync): the task by its Location; without one (a sync started elsewhere), the latest delivery of the amount. */
function captureSyncOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const location = job.connector_transaction_id ?? '';
  if (/^https?:\/\//.test(location)) return taskOutcome(res, location, SveaDelivery, delivered);
  const d = readAnswer(AdminOrder, res, 'svea').Deliveries.filter((x) => x.DeliveryAmount === job.amount).at(-1);
  return d ? delivered(d) : { kind: 'PENDING' };
}

/** The cancel answers 204 (or 200) without a body. */
export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return { kind: 'VOIDED' };
}

/** refund: answers are [202 credit, task]; a refused credit fails the refund (a credit check refusal is declined). */
export function refundOutcome(res: ProviderResponse, _job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (res.status >= 400) {
    const e = errorFields(res);
    return { kind: e.unified_code === 'UE_6000' ? 'DECLINED' : 'FAILED', ...e };
  }
  const location = answers[0]?.headers?.location;
  if (answers.length < 2 || !location) throw new UnexpectedAnswer(`svea: the credit answered HTTP ${answers[0]?.status} without a task Location`);
  return taskOutcome(res, location, SveaCredit, credited);
}

/** refund sync: the task (connector_refund_id is its Location) or the credit. */
export function refundSyncOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return taskOutcome(res, job.connector_refund_id ?? '', SveaCredit, credited);
}
