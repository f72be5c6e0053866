// What Ratepay's transaction says of the authorization, and a decline as an outcome: read by the status sync
// (response.ts) and by the automatic capture's decision to capture (request.ts syncNext).
import type { z } from 'zod';
import type { Outcome } from '../../../domain/payment.ts';
import { unifiedFor } from './errors.ts';
import type { RatepayDecline, RatepayTransaction } from './schemas.ts';

/** A decline as an outcome of `kind`: the category is the error code, the reasons (and any message) its text. */
export function declineOutcome(d: z.infer<typeof RatepayDecline>, kind: 'DECLINED' | 'FAILED'): Outcome {
  const { category, reasons } = d.decline;
  const text = [reasons.join(', '), d.message].filter(Boolean).join(': ') || category;
  return {
    kind,
    error_code: category,
    error_message: text,
    ...unifiedFor(category, reasons),
    ...(d.ratepay_transaction_id ? { connector_transaction_id: d.ratepay_transaction_id } : {}),
  };
}

/** Whether the read links a capture of the transaction (an automatic capture already made). */
export const captured = (t: RatepayTransaction) => (t._links?.captures?.length ?? 0) > 0;

/** The authorization waits for the buyer's one-time passcode (changelog 2025-10-13: "result = OTP_REQUIRED", HTTP 202). */
const OTP_REQUIRED = 'OTP_REQUIRED';

/**
 * What a transaction read says of the authorization. Ratepay's read has no status field (getTransaction sample): a
 * declined transaction carries its `decline`, one waiting for the buyer's passcode the result OTP_REQUIRED; any other
 * transaction Ratepay answers for is authorized. Its captures, cancellations and refunds are ours to know: each was
 * answered when we made it (and the read lists them only as links).
 */
export function transactionState(t: RatepayTransaction): Outcome {
  if (t.decline) return declineOutcome({ ratepay_transaction_id: t.ratepay_transaction_id, decline: t.decline }, 'DECLINED');
  if (t.result?.toUpperCase() === OTP_REQUIRED) return { kind: 'PENDING', connector_transaction_id: t.ratepay_transaction_id };
  return { kind: 'AUTHORIZED', connector_transaction_id: t.ratepay_transaction_id };
}
