// axytos's answers -> outcomes, parsed with zod schemas of axytos's own shapes.
import { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readAnswer, UnexpectedAnswer } from '../kit/answer.ts';
import { DECISION_MESSAGE, unifiedFor } from './errors.ts';
import { externalOrderId } from './request.ts';

export const AxytosPrecheck = z.object({
  processId: z.string(),
  decision: z.string().min(1),
  step: z.string().nullish(),
  approvedPaymentTypeSecurities: z.array(z.string()).nullish(),
  riskTaker: z.string().nullish(),
  transactionMetadata: z.object({
    transactionId: z.string(), transactionInfoSignature: z.string(), transactionTimestamp: z.string(), transactionExpirationTimestamp: z.string(),
  }),
});
export const AxytosInvoice = z.object({ invoiceNumber: z.string().min(1) });
export const AxytosPaymentState = z.object({ paymentState: z.enum(['Unpaid', 'PartiallyPaid', 'Paid', 'Overpaid']) });
const Validation = z.object({ errors: z.record(z.string(), z.array(z.string())), title: z.string().optional() });
const Message = z.object({ message: z.string() });

/** An HTTP error's code and message: the first validation problem's field, or the message. */
export function errorOf(res: ProviderResponse): { code: string; message: string } {
  const v = Validation.safeParse(res.body);
  if (v.success) {
    const [field, msgs] = Object.entries(v.data.errors)[0] ?? ['', []];
    return { code: field ? `HTTP_${res.status}:${field}` : `HTTP_${res.status}`, message: `${field ? `${field}: ` : ''}${msgs[0] ?? v.data.title ?? 'invalid request'}` };
  }
  const m = Message.safeParse(res.body);
  return { code: `HTTP_${res.status}`, message: m.success ? m.data.message : `axytos answered HTTP ${res.status}` };
}

const failure = (kind: OutcomeKind, e: { code: string; message: string }, refund = false): Outcome =>
  ({ kind, error_code: e.code, error_message: e.message, ...unifiedFor(e.code, refund) });

/** authorize: precheck, confirm, and for automatic capture reportshipping and createInvoice. */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (res.status >= 400) {
    const e = failure('FAILED', errorOf(res));
    // The order was confirmed, its invoice refused: the order stands at axytos, nothing captured.
    return answers.length > 2 ? { ...e, connector_transaction_id: externalOrderId(job) } : e;
  }
  const pre = readAnswer(AxytosPrecheck, answers[0]!, 'axytos');
  if (pre.decision !== 'U') {
    const code = `DECISION_${pre.decision}`;
    return { ...failure('DECLINED', { code, message: DECISION_MESSAGE[pre.decision] ?? `axytos did not approve the invoice (decision ${pre.decision})` }), connector_reference_id: pre.processId };
  }
  if (answers.length === 1) throw new UnexpectedAnswer('axytos: the precheck approved, yet no confirm was sent');
  const ids = { connector_transaction_id: externalOrderId(job) };
  if (answers.length === 2) return { kind: 'AUTHORIZED', ...ids, connector_reference_id: pre.processId };
  if (answers.length !== 4) throw new UnexpectedAnswer(`axytos: the authorization chain ended after ${answers.length} calls`);
  // Captured with the authorization: the invoice number is the payment's reference (a refund credits that invoice).
  return { kind: 'CAPTURED', ...ids, connector_reference_id: readAnswer(AxytosInvoice, res, 'axytos').invoiceNumber };
}

/** sync: the order's payment state (known: confirmed); for an automatic capture, then its shipping and invoice. */
export function syncOutcome(res: ProviderResponse, job: ConnectorJob, answers: readonly ProviderResponse[] = [res]): Outcome {
  if (res.status >= 400) return failure('FAILED', errorOf(res));
  const ids = { connector_transaction_id: job.connector_transaction_id ?? externalOrderId(job) };
  if (answers.length === 1) {
    readAnswer(AxytosPaymentState, res, 'axytos');
    return { kind: 'AUTHORIZED', ...ids };
  }
  return { kind: 'CAPTURED', ...ids, connector_reference_id: readAnswer(AxytosInvoice, res, 'axytos').invoiceNumber };
}

/** capture: reportshipping, then createInvoice -> axytos's invoice number is the capture's id. */
export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return failure('FAILED', errorOf(res));
  return { kind: 'CAPTURED', connector_transaction_id: readAnswer(AxytosInvoice, res, 'axytos').invoiceNumber };
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
