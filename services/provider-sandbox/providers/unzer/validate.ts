// Unzer's request validation, in its error dialect: {id: "s-err-…", url, timestamp, isSuccess: false, isError: true,
// errors: [{code, merchantMessage, customerMessage}]}. The API.* codes are the sandbox's (UNVERIFIED: Unzer publishes
// no list), grouped as Unzer groups them: API.320 keys, API.330 a field, API.340 the payment's state or amounts,
// API.310 an unknown resource.
import { randomBytes } from 'node:crypto';

export const CUSTOMER_MESSAGE = 'An error occurred. Please contact the merchant.';

export function errorBody(url: string, code: string, merchantMessage: string, customerMessage = CUSTOMER_MESSAGE) {
  return {
    id: `s-err-${randomBytes(12).toString('hex')}`,
    url,
    timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19),
    isSuccess: false,
    isPending: false,
    isError: true,
    errors: [{ code, merchantMessage, customerMessage }],
  };
}

export type Answer = { status: number; body: unknown };
export const fail = (url: string, status: number, code: string, message: string, customer?: string): Answer => ({
  status,
  body: errorBody(url, code, message, customer),
});

type Obj = Record<string, unknown>;
const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A customer for paylater-invoice: names, email, a billing address; B2C a birth date, B2B a company. Null: valid. */
export function customerProblem(b: Obj): string | null {
  for (const f of ['firstname', 'lastname', 'email'] as const) if (!s(b[f])) return `customer.${f} is missing`;
  const addr = (b.billingAddress ?? {}) as Obj;
  for (const f of ['street', 'zip', 'city', 'country'] as const) if (!s(addr[f])) return `customer.billingAddress.${f} is missing`;
  if (!/^[A-Z]{2}$/.test(String(addr.country))) return 'customer.billingAddress.country must be an ISO 3166 alpha-2 code';
  if (b.salutation !== undefined && !['mr', 'mrs', 'unknown'].includes(String(b.salutation))) return 'customer.salutation must be mr, mrs or unknown';
  const business = !!s(b.company) || b.companyInfo !== undefined;
  if (!business) {
    if (!s(b.birthDate)) return 'customer.birthDate is missing (required for a private customer)';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(b.birthDate))) return 'customer.birthDate must be YYYY-MM-DD';
  } else if (!s(b.company)) {
    return 'customer.company is missing (required for a business customer)';
  }
  return null;
}
