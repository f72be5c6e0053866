// Unzer's request validation, in its error dialect: the keys of Unzer's published error body
// (workers/connectors/unzer/fixtures/published/error-decline.json, from Unzer's Java SDK test data): {id: "s-err-…",
// url, timestamp, errors: [{code, merchantMessage, customerMessage, status}]}. Codes are those Unzer's PHP SDK names
// (src/Constants/ApiResponseCodes.php) where one fits; the requests are refused first by Unzer's published rules
// (fixtures/rules.json), then by the sandbox's own checks (UNVERIFIED: required customer fields, the birth date).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { firstBreach, RequestRules } from '../../../../lib/request-rules.ts';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../../workers/connectors/unzer/fixtures/${name}`, import.meta.url), 'utf8'));

/** One of Unzer's published examples (fixtures/published/<name>.json). */
export const published = (name: string) => fixture(`published/${name}.json`);
/** Unzer's published error body: the imitation answers in its keys. */
const PUBLISHED_ERROR = fixture('published/error-decline.json');
const RULES = fixture('rules.json');
export type Call = 'customer' | 'basket' | 'authorize' | 'refund' | 'webhook';
export const rules = (call: Call) => RequestRules.parse(RULES[call]);

/** The codes of Unzer's PHP SDK (ApiResponseCodes) the sandbox answers with. */
export const CODE = {
  invalidKey: 'API.710.000.002',
  fieldMissing: 'API.710.200.100',
  requestInvalid: 'API.500.300.999',
  paymentNotFound: 'API.310.100.003',
  orderIdInUse: 'API.320.200.138',
  chargeNotAllowed: 'API.330.000.004',
  cancelNotAllowed: 'API.340.000.004',
  amountTooHigh: 'API.330.100.007',
  requiresCustomer: 'API.330.100.008',
  requiresBasket: 'API.330.100.023',
  currencyNotSupported: 'API.330.100.202',
  alreadyCancelled: 'API.340.100.014',
  alreadyCharged: 'API.340.100.018',
  reasonCodeMissing: 'API.340.100.024',
  customerNotFound: 'API.410.100.100',
  basketNotFound: 'API.600.410.024',
  webhookNotFound: 'API.510.310.008',
} as const;

export const CUSTOMER_MESSAGE = 'An error occurred. Please contact the merchant.';

export function errorBody(url: string, code: string, merchantMessage: string, customerMessage = CUSTOMER_MESSAGE) {
  const e = PUBLISHED_ERROR.errors[0];
  return {
    ...PUBLISHED_ERROR,
    id: `s-err-${randomBytes(12).toString('hex')}`,
    url,
    timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19),
    errors: [{ ...e, code, merchantMessage, customerMessage, status: { ...e.status } }],
  };
}

export type Answer = { status: number; body: unknown };
export const fail = (url: string, status: number, code: string, message: string, customer?: string): Answer => ({
  status,
  body: errorBody(url, code, message, customer),
});

/** The first of Unzer's published rules the body breaks, as a 400 naming the field (a missing one API.710.200.100). */
export function breach(url: string, call: Call, body: unknown): Answer | null {
  const b = firstBreach(rules(call), body);
  if (!b) return null;
  const missing = b.message.endsWith('is required');
  const code = missing && call === 'refund' && b.field === 'reasonCode' ? CODE.reasonCodeMissing : missing ? CODE.fieldMissing : CODE.requestInvalid;
  return fail(url, 400, code, b.message);
}

type Obj = Record<string, unknown>;
const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A customer for paylater-invoice: names, email, a billing address; B2C a birth date, B2B a company. Null: valid.
 * UNVERIFIED (the sandbox's own belief; Unzer publishes no required list): which fields Unzer's risk check needs. */
export function customerProblem(b: Obj): string | null {
  for (const f of ['firstname', 'lastname', 'email'] as const) if (!s(b[f])) return `customer.${f} is missing`;
  const addr = (b.billingAddress ?? {}) as Obj;
  for (const f of ['street', 'zip', 'city', 'country'] as const) if (!s(addr[f])) return `customer.billingAddress.${f} is missing`;
  if (!/^[A-Z]{2}$/.test(String(addr.country))) return 'customer.billingAddress.country must be an ISO 3166 alpha-2 code';
  const business = !!s(b.company) || b.companyInfo !== undefined;
  if (!business) {
    if (!s(b.birthDate)) return 'customer.birthDate is missing (required for a private customer)';
    // yyyy-MM-dd: Unzer's Java SDK writes a birth date so (JsonDateConverter).
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(b.birthDate))) return 'customer.birthDate must be YYYY-MM-DD';
  } else if (!s(b.company)) {
    return 'customer.company is missing (required for a business customer)';
  }
  return null;
}
