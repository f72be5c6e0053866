// service_test's answers -> outcomes, parsed with the provider's own shapes.
import { z } from 'zod';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../../provider-http.ts';
import { UnexpectedAnswer } from '../types.ts';
import { unifiedFor } from './errors.ts';

const PaymentStatus = z.enum(['authorized', 'captured', 'declined', 'requires_action', 'pending', 'voided']);
export const ServiceTestPayment = z.object({
  id: z.string(),
  status: PaymentStatus,
  reference: z.string().nullish(),
  redirect_url: z.string().optional(),
  decline: z.object({ code: z.string(), message: z.string() }).optional(),
});
export const ServiceTestCapture = z.object({ id: z.string(), status: z.enum(['succeeded', 'pending', 'failed']) });
/** A void's answer: the payment; any status but voided means it was not released. */
export const ServiceTestVoid = z.object({ status: z.string() });
export const ServiceTestIncrement = z.object({ id: z.string() });
export const ServiceTestRefund = z.object({
  id: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  reference: z.string().nullish(),
  failure: z.object({ code: z.string(), message: z.string() }).optional(),
});
export const ServiceTestError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const PAYMENT_STATUS: Record<z.infer<typeof PaymentStatus>, OutcomeKind> = {
  authorized: 'AUTHORIZED', captured: 'CAPTURED', declined: 'DECLINED', requires_action: 'CUSTOMER_ACTION', pending: 'PENDING', voided: 'VOIDED',
};
const CAPTURE_STATUS: Record<z.infer<typeof ServiceTestCapture>['status'], OutcomeKind> = { succeeded: 'CAPTURED', pending: 'PENDING', failed: 'FAILED' };

function parse<T>(schema: z.ZodType<T>, res: ProviderResponse): T {
  const r = schema.safeParse(res.body);
  if (!r.success) throw new UnexpectedAnswer(`service_test: unexpected answer (HTTP ${res.status}): ${z.prettifyError(r.error)}`);
  return r.data;
}

/** An error answer: a decline for what asks for credit (authorize, increment), a failure otherwise. */
function errorOutcome(res: ProviderResponse, kind: 'DECLINED' | 'FAILED'): Outcome {
  const parsed = ServiceTestError.safeParse(res.body);
  const err = parsed.success ? parsed.data.error : { code: `http_${res.status}`, message: `HTTP ${res.status}` };
  return { kind, error_code: err.code, error_message: err.message, ...unifiedFor(err.code) };
}

/** authorize and sync: the payment. */
export function paymentOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  const p = parse(ServiceTestPayment, res);
  return {
    kind: PAYMENT_STATUS[p.status],
    connector_transaction_id: p.id,
    connector_reference_id: p.reference ?? undefined,
    redirect_url: p.redirect_url,
    ...(p.decline ? { error_code: p.decline.code, error_message: p.decline.message, ...unifiedFor(p.decline.code) } : {}),
  };
}

export function captureOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  const c = parse(ServiceTestCapture, res);
  return { kind: CAPTURE_STATUS[c.status], connector_transaction_id: c.id };
}

export function voidOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  return { kind: parse(ServiceTestVoid, res).status === 'voided' ? 'VOIDED' : 'FAILED' };
}

export function incrementOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'DECLINED');
  return { kind: 'AUTHORIZED', connector_transaction_id: parse(ServiceTestIncrement, res).id };
}

const REFUND_STATUS: Record<z.infer<typeof ServiceTestRefund>['status'], OutcomeKind> = { succeeded: 'REFUNDED', pending: 'PENDING', failed: 'DECLINED' };

/** refund and refund sync: the refund; a refused request (over the captured amount, unknown payment) fails it. */
export function refundOutcome(res: ProviderResponse): Outcome {
  if (res.status >= 400) return errorOutcome(res, 'FAILED');
  const r = parse(ServiceTestRefund, res);
  return {
    kind: REFUND_STATUS[r.status], connector_transaction_id: r.id,
    ...(r.failure ? { error_code: r.failure.code, error_message: r.failure.message, ...unifiedFor(r.failure.code) } : {}),
  };
}
