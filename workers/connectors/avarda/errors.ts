// Avarda's error answers -> our error fields. Avarda answers a non-2xx with an ASP.NET problem
// {type?, title, status, detail?, traceId?, errors?: {"<field>": ["msg"]}} (shape UNVERIFIED; the reference plugin
// flattens `errors`). error_code is the first field named, else the title; error_message every field's messages,
// else the detail, else the title. Avarda exposes no decline reasons: a credit decline never reaches the API.
import { z } from 'zod';
import type { Outcome } from '../../../domain/payment.ts';
import type { ProviderResponse } from '../kit/http.ts';
import { UNIFIED } from '../kit/errors.ts';

export const AvardaProblem = z.object({
  type: z.string().optional(),
  title: z.string().min(1),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  traceId: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

type ErrorFields = Pick<Outcome, 'error_code' | 'error_message' | 'unified_code' | 'unified_message'>;

function unifiedFor(status: number, what: 'payment' | 'refund') {
  if (status === 401 || status === 403) return UNIFIED.credentials_refused;
  if (status === 409 || status === 422) return what === 'refund' ? UNIFIED.refund_declined : UNIFIED.invalid_state;
  if (status >= 400 && status < 500) return UNIFIED.invalid_request;
  return UNIFIED.provider_error;
}

export function errorFields(res: ProviderResponse, what: 'payment' | 'refund' = 'payment'): ErrorFields {
  const p = AvardaProblem.safeParse(res.body);
  const unified = unifiedFor(res.status, what);
  if (!p.success) return { error_code: `http_${res.status}`, error_message: `HTTP ${res.status}`, ...unified };
  const fields = Object.entries(p.data.errors ?? {});
  if (fields.length) {
    return { error_code: fields[0]![0], error_message: fields.map(([k, msgs]) => `${k}: ${msgs.join(' ')}`).join('; '), ...unified };
  }
  return { error_code: p.data.title, error_message: p.data.detail ?? p.data.title, ...unified };
}

/** A session that ended without the customer completing the purchase (left, declined in the form, or expired). */
export const timedOut = (): ErrorFields => ({
  error_code: 'TimedOut',
  error_message: 'The Avarda Checkout session ended before the customer completed the purchase',
  ...UNIFIED.customer_declined,
});
