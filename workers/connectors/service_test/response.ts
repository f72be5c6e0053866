// service_test's answers -> outcomes, parsed with the provider's own shapes (schemas.ts).
import type { ProviderResponse } from '../kit/http.ts';
import { maybeAnswer, readAnswer } from '../kit/answer.ts';
import type { Outcome } from '../kit/outcome.ts';
import { unifiedFor } from './errors.ts';
import {
  CAPTURE_STATUS,
  PAYMENT_STATUS,
  REFUND_STATUS,
  ServiceTestCapture,
  ServiceTestError,
  ServiceTestIncrement,
  ServiceTestPayment,
  ServiceTestRefund,
  ServiceTestVoid,
} from './schemas.ts';

/** An error answer: a decline for what asks for credit (authorize, increment), a failure otherwise. */
function errorOutcome(res: ProviderResponse, kind: 'DECLINED' | 'FAILED'): Outcome {
  const err = maybeAnswer(ServiceTestError, res)?.error ?? { code: `http_${res.status}`, message: `HTTP ${res.status}` };
  return { kind, error_code: err.code, error_message: err.message, ...unifiedFor(err.code) };
}

/** authorize and sync: the payment. */
export function paymentOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const p = readAnswer(ServiceTestPayment, res, 'service_test payment');
  return {
    kind: PAYMENT_STATUS.kind(p.status),
    connector_transaction_id: p.id,
    connector_reference_id: p.reference ?? undefined,
    redirect_url: p.redirect_url,
    ...(p.mandate ? { connector_mandate_id: p.mandate.id } : {}),
    ...(p.decline ? { error_code: p.decline.code, error_message: p.decline.message, ...unifiedFor(p.decline.code) } : {}),
  };
}

export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  const c = readAnswer(ServiceTestCapture, res, 'service_test capture');
  return { kind: CAPTURE_STATUS.kind(c.status), connector_transaction_id: c.id };
}

export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: readAnswer(ServiceTestVoid, res, 'service_test void').status === 'voided' ? 'VOIDED' : 'FAILED' };
}

export function incrementOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  return { kind: 'AUTHORIZED', connector_transaction_id: readAnswer(ServiceTestIncrement, res, 'service_test increment').id };
}

/** refund and refund sync: the refund; a refused request (over the captured amount, unknown payment) fails it. */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  const r = readAnswer(ServiceTestRefund, res, 'service_test refund');
  return {
    kind: REFUND_STATUS.kind(r.status),
    connector_transaction_id: r.id,
    ...(r.failure ? { error_code: r.failure.code, error_message: r.failure.message, ...unifiedFor(r.failure.code) } : {}),
  };
}
