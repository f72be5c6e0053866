// service_test's shapes, as its API (services/provider-sandbox/providers/service_test/, README "service_test")
// answers them; the examples are fixtures/answers.json and fixtures/notifications.json. Every answer we read is
// parsed with one of these (kit/answer.ts readAnswer), and every state enum maps to our outcome in one table
// (kit/outcome.ts states), so a state we do not know does not parse: an unknown outcome, never a guess.
import { z } from 'zod';
import { states } from '../kit/outcome.ts';

/** A payment's status -> our outcome. */
export const PAYMENT_STATUS = states(['authorized', 'captured', 'declined', 'requires_action', 'pending', 'voided'], {
  authorized: 'AUTHORIZED',
  captured: 'CAPTURED',
  declined: 'DECLINED',
  requires_action: 'CUSTOMER_ACTION',
  pending: 'PENDING',
  voided: 'VOIDED',
});
export const CAPTURE_STATUS = states(['succeeded', 'pending', 'failed'], { succeeded: 'CAPTURED', pending: 'PENDING', failed: 'FAILED' });
/** A refund's status as an answer to our refund: a failed refund was declined. */
export const REFUND_STATUS = states(['pending', 'succeeded', 'failed'], { succeeded: 'REFUNDED', pending: 'PENDING', failed: 'DECLINED' });

const Problem = z.object({ code: z.string(), message: z.string() });

export const ServiceTestPayment = z.object({
  id: z.string(),
  status: PAYMENT_STATUS.schema,
  reference: z.string().nullish(),
  redirect_url: z.string().optional(),
  decline: Problem.optional(),
  /** The mandate the payment set up (setup_mandate) or was charged on (mandate): the reference to charge again. */
  mandate: z.object({ id: z.string(), status: z.enum(['active', 'revoked']) }).optional(),
});
export const ServiceTestCapture = z.object({ id: z.string(), status: CAPTURE_STATUS.schema });
/** A void's answer: the payment; any status but voided means it was not released. */
export const ServiceTestVoid = z.object({ status: z.string() });
export const ServiceTestIncrement = z.object({ id: z.string() });
export const ServiceTestRefund = z.object({
  id: z.string(),
  status: REFUND_STATUS.schema,
  reference: z.string().nullish(),
  failure: Problem.optional(),
});
export const ServiceTestError = z.object({ error: Problem });
