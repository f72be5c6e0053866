// Ratepay's published request rules, read from the same file the connector's tests use (workers/connectors/ratepay/
// fixtures/docs/payment-api.rules.json: a JSON Schema transcribed from docs.ratepay.com, sources in its SOURCES.md).
// Data, not the connector's code: the imitation checks what Ratepay documents, not what the connector believes.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { refusal, type Refusal } from './basket.ts';

const file = new URL('../../../../workers/connectors/ratepay/fixtures/docs/payment-api.rules.json', import.meta.url);
const rules = JSON.parse(readFileSync(file, 'utf8')) as { $defs: Record<string, unknown>; idempotency_key_max_length: number; amount_max_decimals: number };

export type RuleName = 'Authorization' | 'FollowUp' | 'TokenRequest';
const schemas = new Map<RuleName, z.ZodType>();
const schema = (name: RuleName) => {
  let s = schemas.get(name);
  if (!s) schemas.set(name, (s = z.fromJSONSchema({ $defs: rules.$defs, $ref: `#/$defs/${name}` } as Parameters<typeof z.fromJSONSchema>[0])));
  return s;
};

/** A body against the rules: null, or Ratepay's 400 SYNTAX INVALID_FIELDS naming the first field that breaks one. */
export function checkRules(name: RuleName, body: unknown): Refusal | null {
  const r = schema(name).safeParse(body);
  if (r.success) return null;
  const issue = r.error.issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? `.${issue.keys.join(', ')}` : '';
  const at = `${issue.path.join('.')}${keys}` || '(body)';
  return refusal(400, 'SYNTAX', 'INVALID_FIELDS', `${at}: ${issue.message}`);
}

export const IDEMPOTENCY_KEY_MAX = rules.idempotency_key_max_length;
export const AMOUNT_MAX_DECIMALS = rules.amount_max_decimals;
