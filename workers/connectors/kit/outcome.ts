// A provider's states in our terms: a typed table from the provider's state enum (spelled as its material spells
// it, parsed by the connector's zod schema) to our outcome kind. The table is a Record over the enum, so a state
// the table forgets is a type error, and a state the provider adds later does not parse (an unknown outcome,
// kit/answer.ts), never a guess.
import { z } from 'zod';
import type { Outcome, OutcomeKind } from '../../../domain/payment.ts';
import { UNIFIED } from './errors.ts';

export type { Outcome, OutcomeKind };

/**
 * A provider state enum and its outcome table: `schema` for the connector's zod schemas, `kind(state)` for the
 * response transformer. Example: `const ORDER = states(['Accepted', 'Pending', 'Rejected'], { Accepted: 'AUTHORIZED',
 * Pending: 'PENDING', Rejected: 'DECLINED' })`, then `z.object({ status: ORDER.schema })` and `ORDER.kind(o.status)`.
 */
export function states<const S extends readonly [string, ...string[]]>(names: S, table: { readonly [K in S[number]]: OutcomeKind }) {
  return {
    schema: z.enum(names),
    names,
    kind: (state: S[number]): OutcomeKind => table[state],
  };
}

/** The same for a table over states parsed elsewhere (a z.enum already in the connector's schemas). */
export const outcomeTable =
  <S extends string>(table: { readonly [K in S]: OutcomeKind }) =>
  (state: S): OutcomeKind =>
    table[state];

export type UnifiedReason = keyof typeof UNIFIED;

/**
 * A provider's error codes -> our unified reasons (errors.ts of each connector): the code's reason, else
 * provider_error. Returns the unified code and message to spread into an Outcome.
 */
export const unifiedTable = (table: Readonly<Record<string, UnifiedReason>>) => (providerCode: string) => UNIFIED[table[providerCode] ?? 'provider_error'];

/** A failed or declined outcome with the provider's code and message and our unified code. */
export function errorOutcome(kind: 'DECLINED' | 'FAILED', code: string, message: string, reason: UnifiedReason | (typeof UNIFIED)[UnifiedReason]): Outcome {
  const unified = typeof reason === 'string' ? UNIFIED[reason] : reason;
  return { kind, error_code: code, error_message: message, ...unified };
}
