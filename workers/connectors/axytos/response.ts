// axytos's answers -> outcomes, read with the zod schemas of axytos's published models (schemas.ts). An answer that is
// not that shape is an unknown outcome (readAnswer throws UnexpectedAnswer: retried, never guessed at).
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import { maybeAnswer, readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { DECISION_MESSAGE, unifiedFor } from './errors.ts';
import { externalOrderId, invoiceNumber } from './request.ts';
import { InvoiceResponse, MessageError, PaymentStateResponse, PrecheckResponse, ProblemDetails } from './schemas.ts';

/**
 * An HTTP error's code and message. axytos answers ProblemDetails for 400, 401, 403 [OAS]: with ASP.NET's `errors`
 * for a refused field (the first one's name goes into the code), else its detail or title; {"message"} as the
 * WooCommerce plugin also reads.
 */
export function errorOf(res: ProviderResponse): { code: string; message: string } {
  const p = maybeAnswer(ProblemDetails, res);
  if (p) {
    const [field, msgs] = Object.entries(p.errors ?? {})[0] ?? ['', []];
    if (field) return { code: `HTTP_${res.status}:${field}`, message: `${field}: ${msgs[0] ?? p.title ?? 'invalid'}` };
    const text = p.detail ?? p.title;
    if (text) return { code: `HTTP_${res.status}`, message: text };
  }
  const m = maybeAnswer(MessageError, res);
  return { code: `HTTP_${res.status}`, message: m ? m.message : `axytos answered HTTP ${res.status}` };
}

const failure = (kind: OutcomeKind, e: { code: string; message: string }, refund = false): Outcome => ({
  kind,
  error_code: e.code,
  error_message: e.message,
  ...unifiedFor(e.code, refund),
});

/** authorize: precheck, confirm, and for automatic capture reportshipping and createInvoice. */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (res.status >= 400) {
    const e = failure('FAILED', errorOf(res));
    // The order was confirmed, its invoice refused: the order stands at axytos, nothing captured.
    return answers.length > 2 ? { ...e, connector_transaction_id: externalOrderId(job) } : e;
  }
  const pre = readAnswer(PrecheckResponse, answers[0]!, 'axytos precheck');
  if (pre.decision !== 'U') {
    const code = `DECISION_${pre.decision}`;
    return {
      ...failure('DECLINED', { code, message: DECISION_MESSAGE[pre.decision] ?? `axytos did not approve the invoice (decision ${pre.decision})` }),
      connector_reference_id: pre.processId,
    };
  }
  if (answers.length === 1) throw new UnexpectedAnswer('axytos: the precheck approved, yet no confirm was sent');
  const ids = { connector_transaction_id: externalOrderId(job) };
  if (answers.length === 2) return { kind: 'AUTHORIZED', ...ids, connector_reference_id: pre.processId };
  if (answers.length !== 4) throw new UnexpectedAnswer(`axytos: the authorization chain ended after ${answers.length} calls`);
  // Captured with the authorization: our invoice number is the payment's reference (a refund names that invoice).
  readAnswer(InvoiceResponse, res, 'axytos invoice');
  return { kind: 'CAPTURED', ...ids, connector_reference_id: invoiceNumber(job) };
}

/** sync: the order's payment state (known: confirmed); for an automatic capture, then its shipping and invoice. */
export function syncOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (res.status >= 400) return failure('FAILED', errorOf(res));
  const ids = { connector_transaction_id: job.connector_transaction_id ?? externalOrderId(job) };
  if (answers.length === 1) {
    readAnswer(PaymentStateResponse, res, 'axytos payment state');
    return { kind: 'AUTHORIZED', ...ids };
  }
  readAnswer(InvoiceResponse, res, 'axytos invoice');
  return { kind: 'CAPTURED', ...ids, connector_reference_id: invoiceNumber(job) };
}

/**
 * capture: reportshipping, then createInvoice. The capture's id is our invoice number (externalInvoiceNumber: what a
 * refund names as originalInvoiceNumber); axytos's own invoiceNumber is kept as the capture's reference.
 */
export function captureOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) return failure('FAILED', errorOf(res));
  return {
    kind: 'CAPTURED',
    connector_transaction_id: invoiceNumber(job),
    connector_reference_id: readAnswer(InvoiceResponse, res, 'axytos invoice').invoiceNumber,
  };
}

export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return failure('FAILED', errorOf(res));
  return { kind: 'VOIDED' };
}

/** refund: a 2xx credits the invoice (axytos names no refund: our refund id stands for it); a refusal declines it. */
export function refundOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  if (res.status >= 400) {
    const e = errorOf(res);
    return failure(e.code === 'HTTP_401' || e.code === 'HTTP_403' ? 'FAILED' : 'DECLINED', e, true);
  }
  return { kind: 'REFUNDED', connector_transaction_id: job.refund_id ?? job.operation_id };
}
