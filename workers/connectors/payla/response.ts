// PAYONE's answers -> outcomes. The Server API answers HTTP 200 with plain-text lines `key=value` (status=APPROVED |
// PENDING | ERROR); they are split into a record and parsed with zod schemas of PAYONE's own fields.
import type { z } from 'zod';
import type { ConnectorJob } from '../../../domain/job.ts';
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { readValue, UnexpectedAnswer } from '../kit/answer.ts';
import { unifiedFor } from './errors.ts';
import { isManual } from './request.ts';
import { PayoneAnswer, type PayoneApproved, type PayoneError } from './schemas.ts';

/** "status=APPROVED\ntxid=1" -> {status: 'APPROVED', txid: '1'}; the value is everything after the first '='. */
export function splitLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export function parseAnswer(res: ProviderResponse): PayoneAnswer {
  if (typeof res.body !== 'string') throw new UnexpectedAnswer(`payla: the answer is not PAYONE's key=value text (HTTP ${res.status})`);
  return readValue(PayoneAnswer, splitLines(res.body), `payla (HTTP ${res.status})`);
}

/** status=ERROR as an outcome of `kind`: PAYONE's code, its technical message (and the buyer's message beside it). */
export function errorOutcome(e: z.infer<typeof PayoneError>, kind: 'DECLINED' | 'FAILED'): Outcome {
  const text =
    [e.errormessage, e.customermessage && e.customermessage !== e.errormessage ? `(customer: ${e.customermessage})` : ''].filter(Boolean).join(' ') ||
    `PAYONE error ${e.errorcode}`;
  const unified = unifiedFor(e.errorcode, e.errormessage);
  // A refusal of the account's credentials fails the payment; the buyer was not declined.
  return {
    kind: unified.unified_code === 'UE_4000' ? 'FAILED' : kind,
    error_code: e.errorcode,
    error_message: text,
    ...unified,
    ...(e.txid ? { connector_transaction_id: e.txid } : {}),
  };
}

/**
 * authorize: APPROVED is authorized (preauthorization) or captured (authorization, automatic capture); PENDING (not
 * documented for fnc) stays pending; ERROR a decline with PAYONE's code.
 */
export function authorizeOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  const a = parseAnswer(res);
  if (a.status === 'ERROR') return errorOutcome(a, 'DECLINED');
  if (!a.txid) throw new UnexpectedAnswer('payla: an approved (pre)authorization names no txid');
  if (a.status === 'PENDING') return { kind: 'PENDING', connector_transaction_id: a.txid };
  return { kind: isManual(job) ? 'AUTHORIZED' : 'CAPTURED', connector_transaction_id: a.txid, ...(a.userid ? { connector_reference_id: a.userid } : {}) };
}

/** A follow-up's answer names the transaction's txid again: the capture or refund has no id of its own at PAYONE. */
const followUpId = (job: ConnectorJob, a: z.infer<typeof PayoneApproved>) =>
  `${a.txid ?? job.connector_transaction_id ?? ''}-${(job.follow_ups_before ?? 0) + 1}`;

/**
 * 921 (this sequencenumber is taken) on a follow-up: PAYONE has no idempotency key and no status read, so it may be
 * this very operation, done by an earlier attempt whose answer was lost. It is never reported failed (that could hide
 * a charge or a refund): the operation stays open, in flight, for the status syncs and an operator to settle.
 */
const sequenceTaken = (a: { status: string; errorcode?: string }) => a.status === 'ERROR' && a.errorcode === '921';

export function captureOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  const a = parseAnswer(res);
  if (sequenceTaken(a)) return { kind: 'PENDING' };
  if (a.status === 'ERROR') return errorOutcome(a, 'FAILED');
  if (a.status === 'PENDING') throw new UnexpectedAnswer('payla: a capture answered PENDING');
  return { kind: 'CAPTURED', connector_transaction_id: followUpId(job, a) };
}

export function voidOutcome(res: ProviderResponse): Outcome {
  const a = parseAnswer(res);
  if (sequenceTaken(a)) return { kind: 'PENDING' };
  if (a.status === 'ERROR') return errorOutcome(a, 'FAILED');
  if (a.status === 'PENDING') throw new UnexpectedAnswer('payla: a release answered PENDING');
  return { kind: 'VOIDED' };
}

/** refund: a debit is decided at once; a refused one (991) is declined, any other error fails it. */
export function refundOutcome(res: ProviderResponse, job: ConnectorJob): Outcome {
  const a = parseAnswer(res);
  if (sequenceTaken(a)) return { kind: 'PENDING' };
  if (a.status === 'ERROR') {
    const o = errorOutcome(a, 'FAILED');
    return o.unified_code === 'UE_6000' ? { ...o, kind: 'DECLINED' } : o;
  }
  if (a.status === 'PENDING') return { kind: 'PENDING', connector_transaction_id: followUpId(job, { status: 'APPROVED', txid: a.txid }) };
  return { kind: 'REFUNDED', connector_transaction_id: followUpId(job, a) };
}
