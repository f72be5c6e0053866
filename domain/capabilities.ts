// What a connector can take, checked before anything is queued (ARCHITECTURE.md "Connectors": capabilities are
// data). A payment the connector cannot take is refused with a 400 naming the field or the capability. Pure.
//
// domain/ imports no connector: the connectors' capabilities (the data half of their definitions, their manifests:
// workers/connectors/manifests.ts) are handed to it by each process at its start (useCapabilities: the gateway,
// payment-state and the workers' mains, and the tests' setup). A decision asked before that throws: it never
// decides without them (an absent table would otherwise let every payment through).
import type { CaptureMethodName, ConnectorName } from '../lib/schemas/common.ts';
import type { Refusal, StoredPayment } from './payment.ts';
import { automaticCapture, refuse } from './transitions.ts';

/** What domain/ reads of a connector: the capability fields of its manifest (workers/connectors/manifest.ts). */
export interface ConnectorCapabilities {
  name: ConnectorName;
  /** The flows it implements ('refund', 'incrementalAuthorization', ...). */
  flows: readonly string[];
  capture_methods: readonly CaptureMethodName[];
  automatic_capture?: 'provider' | 'follow_up';
  partial_capture: boolean;
  multiple_capture: boolean;
  countries: readonly string[] | 'any';
  currencies: readonly string[] | 'any';
  customers: readonly ('B2B' | 'B2C')[];
  required_fields: readonly string[];
  capture_fields?: readonly string[];
  partial_refund?: boolean;
  /** Mandates (issue 22): the payment method types a mandate may be set up for, and zero authorizations; absent: none. */
  mandates?: { payment_method_types: readonly string[]; setup_mandate: boolean } | null;
}

/** Every implemented connector's capabilities, by name (a connector without an entry is not enabled). */
export type CapabilityTable = Partial<Record<ConnectorName, ConnectorCapabilities>>;

let handed: CapabilityTable | null = null;

/** Hands domain/ the connectors' capabilities: once per process, at its start (before any decision). */
export function useCapabilities(table: CapabilityTable): void {
  handed = table;
}

/** The capabilities handed in (throws when none were: a process that decides must hand them first). */
export function capabilityTable(): CapabilityTable {
  if (!handed) throw new Error('domain/capabilities: no connector capabilities handed in (useCapabilities at the process start)');
  return handed;
}

export const manifestOf = (c: ConnectorName | null | undefined): ConnectorCapabilities | undefined => (c ? capabilityTable()[c] : undefined);

/** The value at a dotted path of the payment resource ('metadata.company_name', 'billing.address.country'). */
export function valueAt(p: unknown, path: string): unknown {
  let v: unknown = p;
  for (const k of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}
const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Whether the connector's automatic capture is a capture call of ours after it authorizes (manifest automatic_capture). */
export const followUpCapture = (c: ConnectorName | null | undefined) => manifestOf(c)?.automatic_capture === 'follow_up';

/** B2B when the merchant says the buyer is a business (spec 2.5 buyer_type); B2C otherwise. */
export const customerType = (p: Pick<StoredPayment, 'metadata'>): 'B2B' | 'B2C' =>
  ['business', 'b2b', 'company'].includes(String(p.metadata?.buyer_type ?? '').toLowerCase()) ? 'B2B' : 'B2C';

/**
 * Can the connector serve a payment of this currency, billing country and customer type? A country not given yet is
 * IR_04 (the caller decides whether that matters: routing does not exclude a connector for it).
 */
export function servingRefusal(m: ConnectorCapabilities | undefined, p: { currency: string; country: unknown; customer: 'B2B' | 'B2C' }): Refusal | null {
  if (!m) return null;
  const connector = m.name;
  if (m.currencies !== 'any' && !m.currencies.includes(p.currency as never)) {
    return refuse('IR_05', `${connector} does not take ${p.currency} (it takes ${m.currencies.join(', ')})`, 'currency');
  }
  if (!m.customers.includes(p.customer)) {
    return refuse(
      'IR_05',
      `${connector} does not take ${p.customer} customers (it takes ${m.customers.join(', ')}); see metadata.buyer_type`,
      'metadata.buyer_type',
    );
  }
  if (m.countries !== 'any') {
    if (!present(p.country)) return refuse('IR_04', `${connector} needs the billing address's country`, 'billing.address.country');
    if (!m.countries.includes(p.country as never)) {
      return refuse('IR_05', `${connector} does not lend in ${String(p.country)} (it lends in ${m.countries.join(', ')})`, 'billing.address.country');
    }
  }
  return null;
}

/** Can the connector take this payment as confirmed (capture method, currency, country, customer type, fields)? */
export function confirmRefusal(m: ConnectorCapabilities | undefined, p: StoredPayment): Refusal | null {
  if (!m) return null;
  const method = p.capture_method ?? 'automatic';
  if (!m.capture_methods.includes(method as never)) {
    return refuse('IR_05', `${m.name} does not support capture_method ${method} (it takes ${m.capture_methods.join(', ')})`, 'capture_method');
  }
  // A recurring charge (issue 22) is made on the provider's own mandate, without the customer: what the connector needs
  // to open its customer step and assess the buyer (required_fields, the billing country) came with the mandate's first
  // payment and is the provider's. It needs neither; a country it is given is still checked, and so are the fields an
  // automatic capture needs (capture_fields).
  const recurring = p.mandate?.kind === 'recurring';
  const country = valueAt(p, 'billing.address.country');
  const serving = servingRefusal(recurring && !present(country) ? { ...m, countries: 'any' } : m, { currency: p.currency, country, customer: customerType(p) });
  if (serving) return serving;
  const needed = fieldsNeeded(m, method);
  for (const path of recurring ? needed.confirm.filter((f) => m.capture_fields?.includes(f)) : needed.confirm) {
    if (present(valueAt(p, path))) continue;
    const why = m.capture_fields?.includes(path)
      ? ` for capture_method ${method}: its capture needs it, and an automatic capture has no capture request to give it in`
      : '';
    return refuse('IR_04', `${m.name} needs ${path}${why}`, path);
  }
  return null;
}

/**
 * The fields a connector needs for a payment of this capture method (dotted paths): those the payment must hold
 * when it is confirmed, and those each capture request must give or the payment hold. A capture's own fields
 * (manifest capture_fields) are due at confirm for an automatic capture, which has no request of its own, and at
 * each capture for the manual methods (the capture request's metadata may carry them: the payment's metadata
 * cannot change once confirmed).
 */
export function fieldsNeeded(m: ConnectorCapabilities, method: CaptureMethodName): { confirm: string[]; capture: string[] } {
  const capture = [...(m.capture_fields ?? [])];
  return automaticCapture(method) ? { confirm: [...m.required_fields, ...capture], capture: [] } : { confirm: [...m.required_fields], capture };
}

/**
 * Can the connector capture this amount (partial capture), with what this capture request and the payment give
 * (its capture_fields: the request's value first, as the connector reads them)?
 */
export function captureRefusal(m: ConnectorCapabilities | undefined, p: StoredPayment, amount: number, request: object = {}): Refusal | null {
  if (!m) return null;
  if (!m.partial_capture && amount < p.amount_capturable) {
    return refuse('IR_05', `${m.name} captures the whole authorized amount only (${p.amount_capturable})`, 'amount_to_capture');
  }
  for (const path of m.capture_fields ?? []) {
    if (!present(valueAt(request, path)) && !present(valueAt(p, path))) {
      return refuse('IR_04', `${m.name} needs ${path} to capture (in this capture request's ${path.split('.')[0]}, or on the payment)`, path);
    }
  }
  return null;
}

/** Can the connector refund, and refund this amount (partial refund)? */
export function refundRefusal(m: ConnectorCapabilities | undefined, amount: number, refundable: number): Refusal | null {
  if (!m) return null;
  if (!m.flows.includes('refund')) return refuse('IR_05', `${m.name} does not support refunds`, 'payment_id');
  if (m.partial_refund === false && amount < refundable) {
    return refuse('IR_05', `${m.name} refunds the whole captured amount only (${refundable})`, 'amount');
  }
  return null;
}

/**
 * Can the connector keep the mandate this payment asks for (manifest `mandates`)? Refused up front, naming the
 * field that asked for it: a connector whose provider publishes no recurring charge cannot charge the customer again.
 */
export function mandateRefusal(
  m: ConnectorCapabilities | undefined,
  p: Pick<StoredPayment, 'payment_method_type'>,
  asked: { kind: 'new' | 'setup' | 'recurring'; field: string },
): Refusal | null {
  if (!m) return null;
  const support = m.mandates;
  if (!support) {
    return refuse(
      'IR_05',
      `${m.name} cannot keep a mandate (its provider publishes no recurring or tokenised charge), so ${asked.field} cannot be served`,
      asked.field,
    );
  }
  const type = p.payment_method_type;
  if (type && !support.payment_method_types.includes(type)) {
    return refuse('IR_05', `${m.name} keeps mandates for ${support.payment_method_types.join(', ')} only, not ${type}`, 'payment_method_type');
  }
  if (asked.kind === 'setup' && !support.setup_mandate) {
    return refuse('IR_05', `${m.name} cannot set up a mandate without a payment (payment_type setup_mandate)`, 'payment_type');
  }
  return null;
}
