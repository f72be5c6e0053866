// Svea's answers -> outcomes, parsed with the schemas written from Svea's own examples (schemas.ts). Errors are
// {Code, Message, Errors[{Code, Field, ErrorMessage}]}; a declined credit check is no API error (the customer cannot
// finish the checkout, the order ends Cancelled). Deliveries and credits are asynchronous: 202 with the Location of a
// task, {Id, Status: InProgress} while it runs, then 303 to what it made (fetch follows it): the order, for a delivery
// (the .NET SDK reads it as an order; the Magento module takes the task's Deliveries[0]), {CreditId} for a credit.
import type { Outcome } from '../../../domain/payment.ts';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { maybeAnswer, readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { UNIFIED } from '../kit/errors.ts';
import { unifiedFor } from './errors.ts';
import { AdminDelivery, AdminOrder, CheckoutOrder, Credit, DELIVERABLE, SveaError, Task } from './schemas.ts';

/** An error answer in our terms: Svea's code and message (the first of Errors[], naming its field); a body not
 * Svea's still names the status (and the ErrorMessage header php-checkout reads). */
export function errorFields(res: ProviderResponse) {
  const e = maybeAnswer(SveaError, res);
  const first = e?.Errors?.[0];
  const given = e ? (e.Code ?? first?.Code ?? e.resultCode) : undefined;
  const code = given != null ? String(given) : `http_${res.status}`;
  const detail = first?.ErrorMessage ? `${first.Field ? `${first.Field}: ` : ''}${first.ErrorMessage}` : undefined;
  const message = detail || e?.Message || e?.errorMessage || res.headers?.errormessage || `HTTP ${res.status}`;
  return { error_code: code, error_message: message, ...unifiedFor(code, res.status) };
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The checkout's address in Svea's snippet: the iframe has no `src`; Svea's merchant script loads the address in its
 * `data-sco-sveacheckout-iframeSrc` attribute (DataSample CheckoutCreateOrderResponse). We send the customer to that
 * address (the customer step's URL); an iframe that does have a `src` is read too.
 */
export function checkoutUrlOf(snippet: string | null | undefined): string | undefined {
  const iframe = /<iframe\b[^>]*>/i.exec(snippet ?? '')?.[0];
  if (!iframe) return undefined;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(iframe);
  const m = attr('data-sco-sveacheckout-iframeSrc') ?? attr('src');
  const url = m ? decode(m[1] ?? m[2] ?? '') : '';
  return /^https?:\/\//.test(url) ? url : undefined;
}

const CANCELLED = {
  error_code: 'Cancelled',
  error_message: 'The checkout order was cancelled: the customer did not complete Svea Checkout',
  ...unifiedFor('Cancelled'),
};

const idsOf = (o: CheckoutOrder) => ({ connector_transaction_id: o.OrderId, ...(o.ClientOrderNumber ? { connector_reference_id: o.ClientOrderNumber } : {}) });

/** A checkout order: Created waits for the customer (at the checkout), Cancelled is over, Final goes on to the admin order. */
function checkoutOutcome(o: CheckoutOrder): Outcome {
  const ids = idsOf(o);
  if (o.Status === 'Cancelled') return { kind: 'DECLINED', ...ids, ...CANCELLED };
  if (o.Status === 'Final') return { kind: 'PENDING', ...ids };
  const url = checkoutUrlOf(o.Gui?.Snippet);
  return url ? { kind: 'CUSTOMER_ACTION', ...ids, redirect_url: url } : { kind: 'PENDING', ...ids };
}

/** authorize: the new checkout order (or the one the clientOrderNumber already names). */
export function authorizeOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'DECLINED', ...errorFields(res) };
  return checkoutOutcome(readAnswer(CheckoutOrder, res, 'svea checkout order'));
}

/**
 * A recurring order's refusal: Svea's token endpoints answer their errors in the headers X-SVEACHECKOUT-ERRORCODE and
 * X-SVEACHECKOUT-ERRORMESSAGE (docs checkout/recurring-orders/introduction: "Any errors will be returned in the response
 * header"); 404 "No token with the requested ID was found" and 118 "Invalid token status" (a token whose status is
 * not Active: cancelled, cancel-recurring-order) mean the mandate is gone at Svea: declined, UE_7000 (our mandate
 * becomes revoked). A body of Svea's error shape is read too.
 */
export function tokenErrorFields(res: ProviderResponse) {
  const code = res.headers?.['x-sveacheckout-errorcode'];
  const message = res.headers?.['x-sveacheckout-errormessage'];
  if (!code && res.status !== 404) return errorFields(res);
  const c = code ?? 'http_404';
  const gone = res.status === 404 || c === '118';
  return {
    error_code: c,
    error_message: message || (res.status === 404 ? 'No token with the requested ID was found' : `HTTP ${res.status}`),
    ...(gone ? UNIFIED.mandate_revoked : unifiedFor(c, res.status)),
  };
}

/**
 * authorize of a recurring charge: the new order made on the token (201, the checkout order's shape without a Gui: "not
 * applicable for an order created with token"). Not yet authorized here: the status sync reads it as any order (Final,
 * then the admin order's deliver actions). A refusal is declined with Svea's words.
 */
export function recurringOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'DECLINED', ...tokenErrorFields(res) };
  const o = readAnswer(CheckoutOrder, res, 'svea recurring order');
  if (o.Status === 'Cancelled') return { kind: 'DECLINED', ...idsOf(o), ...CANCELLED };
  return { kind: 'PENDING', ...idsOf(o) };
}

/** The mandate's reference once the first order is authorized: its RecurringToken (set when Final, §9). */
const mandateOf = (o: CheckoutOrder) => (o.RecurringToken ? { connector_mandate_id: o.RecurringToken } : {});

/**
 * sync: the checkout order, and for a Final one the admin order: deliverable (CanDeliverOrder or CanDeliverPartially)
 * is authorized; Open without either, or Processing, is still being checked by Svea (pending); Delivered is
 * authorized (captured by the capture's own sync); Cancelled or Failed is declined.
 */
export function syncOutcome(res: ProviderResponse, _job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  const first = answers[0] ?? res;
  if (first.status >= 400) return { kind: 'DECLINED', ...errorFields(first) };
  const checkout = readAnswer(CheckoutOrder, first, 'svea checkout order');
  const base = checkoutOutcome(checkout);
  if (checkout.Status !== 'Final' || answers.length < 2) return base;
  const ids = idsOf(checkout);
  if (res.status >= 400) return { kind: 'PENDING', ...ids };
  const o = readAnswer(AdminOrder, res, 'svea admin order');
  switch (o.OrderStatus) {
    case 'Open':
      return DELIVERABLE.some((a) => o.Actions.includes(a)) ? { kind: 'AUTHORIZED', ...ids, ...mandateOf(checkout) } : { kind: 'PENDING', ...ids };
    case 'Processing':
      return { kind: 'PENDING', ...ids };
    case 'Delivered':
      return { kind: 'AUTHORIZED', ...ids, ...mandateOf(checkout) };
    case 'Cancelled':
    case 'Failed':
      return { kind: 'DECLINED', ...ids, error_code: o.OrderStatus, error_message: `Svea's order is ${o.OrderStatus}`, ...unifiedFor('Cancelled') };
  }
}

/** Task statuses that mean "still running": InProgress is Svea's (.NET SDK, Magento module); no other is published. */
const RUNNING = new Set(['InProgress']);

/**
 * What a task poll answered: still running; finished, naming its resource in the body (a 303 not followed: the .NET
 * SDK's Task has ResourceUri) so the chain fetches it next; failed (any other status without a resource: UNVERIFIED);
 * or, the 303 followed, the resource itself.
 */
export type TaskStep = { step: 'running'; task: Task } | { step: 'fetch'; uri: string } | { step: 'failed'; task: Task } | { step: 'resource' };
export function taskStep(res: ProviderResponse): TaskStep {
  const t = maybeAnswer(Task, res);
  if (!t) return { step: 'resource' };
  if (RUNNING.has(t.Status)) return { step: 'running', task: t };
  if (t.ResourceUri && /^https?:\/\//.test(t.ResourceUri)) return { step: 'fetch', uri: t.ResourceUri };
  return { step: 'failed', task: t };
}

/** A task's answer: still running (pending, known by its Location), failed, or the resource it led to. */
function taskOutcome(res: ProviderResponse, location: string, finished: (res: ProviderResponse) => Outcome): Outcome {
  const s = taskStep(res);
  if (s.step === 'running') return { kind: 'PENDING', connector_transaction_id: location };
  if (s.step === 'failed')
    return { kind: 'FAILED', error_code: 'TaskFailed', error_message: `Svea's task ${s.task.Id} ended ${s.task.Status}`, ...unifiedFor('TaskFailed') };
  if (s.step === 'fetch') throw new UnexpectedAnswer(`svea: task answered its resource ${s.uri} without it being fetched`);
  return finished(res);
}

/**
 * The delivery a finished delivery task made. Svea's task leads to the order (its Deliveries): the newest delivery of
 * the job's amount (ids grow: DataSample), else the newest; a delivery itself is read too.
 */
function delivered(job: ConnectorJob) {
  return (res: ProviderResponse): Outcome => {
    const asDelivery = maybeAnswer(AdminDelivery, res);
    if (asDelivery) return { kind: 'CAPTURED', connector_transaction_id: asDelivery.Id };
    const o = readAnswer(AdminOrder, res, 'svea admin order');
    const newest = [...o.Deliveries].sort((a, b) => Number(b.Id) - Number(a.Id));
    const d = newest.find((x) => x.DeliveryAmount === job.amount) ?? newest[0];
    if (!d) throw new UnexpectedAnswer(`svea: the finished delivery task led to order ${o.Id}, which has no delivery`);
    return { kind: 'CAPTURED', connector_transaction_id: d.Id };
  };
}
/** What a finished credit task leads to: {CreditId} (the credit's id, our connector_refund_id). */
const credited = (res: ProviderResponse): Outcome => ({ kind: 'REFUNDED', connector_transaction_id: readAnswer(Credit, res, 'svea credit').CreditId });

/** The task's Location of a chain: the answer (202) that named it. */
const locationIn = (answers: readonly ProviderResponse[]) => answers.find((a) => a.status === 202 && a.headers?.location)?.headers?.location;

/**
 * capture (execute): answers are [admin order, 202 delivery, task(, resource)]. Fewer: no rows add up to the amount,
 * or the delivery was refused. A running task leaves the capture pending; its Location is the capture's id until done.
 */
export function captureOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (job.mode === 'sync') return captureSyncOutcome(res, job);
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  if (answers.length === 1) {
    const o = readAnswer(AdminOrder, res, 'svea admin order');
    return {
      kind: 'FAILED',
      error_code: 'no_matching_rows',
      ...unifiedFor('40001'),
      error_message: `No rows of Svea order ${o.Id} left to deliver add up to ${job.amount} (Svea delivers whole rows and units)`,
    };
  }
  const location = locationIn(answers);
  if (answers.length === 2 || !location) throw new UnexpectedAnswer(`svea: the delivery answered HTTP ${answers[1]?.status} without a task Location`);
  return taskOutcome(res, location, delivered(job));
}

/** capture (sync): the task by its Location; without one (a sync started elsewhere), the newest delivery of the amount. */
function captureSyncOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  const location = job.connector_transaction_id ?? '';
  if (/^https?:\/\//.test(location)) return taskOutcome(res, location, delivered(job));
  const d = readAnswer(AdminOrder, res, 'svea admin order')
    .Deliveries.filter((x) => x.DeliveryAmount === job.amount)
    .sort((a, b) => Number(b.Id) - Number(a.Id))[0];
  return d ? { kind: 'CAPTURED', connector_transaction_id: d.Id } : { kind: 'PENDING' };
}

/** The cancel answers 204 (or 200) without a body (§13.5: "Response is empty"). */
export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return { kind: 'VOIDED' };
}

/** refund: answers are [202 credit, task(, resource)]; a refused credit fails the refund (a credit refusal is declined). */
export function refundOutcome(res: ProviderResponse, _job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (res.status >= 400) {
    const e = errorFields(res);
    return { kind: e.unified_code === 'UE_6000' ? 'DECLINED' : 'FAILED', ...e };
  }
  const location = locationIn(answers);
  if (answers.length < 2 || !location) throw new UnexpectedAnswer(`svea: the credit answered HTTP ${answers[0]?.status} without a task Location`);
  return taskOutcome(res, location, credited);
}

/** refund sync: the task (connector_refund_id is its Location while pending), or the credit it led to. */
export function refundSyncOutcome(res: ProviderResponse, job: ConnectorJob, _answers?: readonly ProviderResponse[]): Outcome {
  if (res.status >= 400) return { kind: 'FAILED', ...errorFields(res) };
  return taskOutcome(res, job.connector_refund_id ?? '', credited);
}
