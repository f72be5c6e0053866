// Zinia's request validation as the sandbox designs it (UNVERIFIED): the first problem found is answered 400
// {code: VALIDATION_ERROR, message naming the field, field}. Amounts are decimal euros with at most two decimals.
import { fromDecimalString } from '../../../../lib/money.ts';

export class Invalid extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  constructor(message: string, field?: string, code = 'VALIDATION_ERROR', status = 400) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
  get body() {
    return { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) };
  }
}

type Obj = Record<string, any>;
export const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const required = (v: unknown, field: string) => {
  if (!s(v)) throw new Invalid(`${field} is required`, field);
  return s(v)!;
};

/** Decimal euros -> cents, refusing what is not a number or has more than two decimals. */
export function cents(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Invalid(`${field} must be a number`, field);
  try {
    return fromDecimalString(String(v), 'EUR');
  } catch {
    throw new Invalid(`${field} must have at most two decimals`, field);
  }
}

/**
 * The default basket limits in cents: 50–750 EUR for pay in 30 days (payever's Zinia BNPL Germany page) and, by
 * default, also for instalments (payever's Zinia instalment Germany page; issue 21: the imitation had 3000 EUR, which
 * no source shows). Zinia sets a merchant's own maximum individually.
 */
export const PRODUCTS = { PAY_IN_30: { min: 5_000, max: 75_000 }, INSTALMENTS: { min: 5_000, max: 75_000 } } as const;
export const COUNTRIES = ['DE', 'ES', 'NL'];
const ITEM_TYPES = ['PRODUCT', 'DIGITAL', 'SHIPPING', 'DISCOUNT'];

/** Items: unit_price × quantity = total_amount each; returns Σ total_amount in cents. */
export function itemsTotal(items: unknown, field: string): number {
  if (!Array.isArray(items) || items.length === 0 || items.length > 100) throw new Invalid(`${field} must hold 1 to 100 items`, field);
  let total = 0;
  items.forEach((it: Obj, i) => {
    const at = `${field}[${i}]`;
    required(it?.name, `${at}.name`);
    if (!Number.isInteger(it.quantity) || it.quantity < 1) throw new Invalid(`${at}.quantity must be a positive integer`, `${at}.quantity`);
    if (!ITEM_TYPES.includes(it.type)) throw new Invalid(`${at}.type must be one of ${ITEM_TYPES.join(', ')}`, `${at}.type`);
    const unit = cents(it.unit_price, `${at}.unit_price`);
    const line = cents(it.total_amount, `${at}.total_amount`);
    if (unit * it.quantity !== line) throw new Invalid(`${at}.total_amount must be unit_price × quantity`, `${at}.total_amount`);
    total += line;
  });
  return total;
}

/** Full years since a YYYY-MM-DD birth date. */
export const age = (birth: string, now = new Date()) => {
  const [y, m, d] = birth.split('-').map(Number) as [number, number, number];
  return now.getUTCFullYear() - y - (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d) ? 1 : 0);
};

/** POST /checkout/orders: the order's amount in cents, once the body is valid. */
export function validateOrder(b: Obj): number {
  const ref = required(b.merchant_order_id, 'merchant_order_id');
  if (ref.length > 64) throw new Invalid('merchant_order_id must be at most 64 characters', 'merchant_order_id');
  if (!(b.product in PRODUCTS)) throw new Invalid(`product must be one of ${Object.keys(PRODUCTS).join(', ')}`, 'product');
  if (b.currency !== 'EUR') throw new Invalid('currency must be EUR', 'currency');
  const amount = cents(b.amount, 'amount');
  const c: Obj = b.customer ?? {};
  required(c.first_name, 'customer.first_name');
  required(c.last_name, 'customer.last_name');
  if (!s(c.email)?.includes('@')) throw new Invalid('customer.email is required', 'customer.email');
  // The customer gives the mobile number and date of birth at Zinia's page (the Link-Up: Computop's Zinia page, payever's
  // Zinia instalment page), so the order may come without them (issue 21: they were required here, which no source
  // shows). When the shop sends them (a prefill, UNVERIFIED), they must be well formed.
  if (c.mobile_phone != null && !/^\+\d{8,15}$/.test(s(c.mobile_phone) ?? ''))
    throw new Invalid('customer.mobile_phone must be in international format (+4915112345678)', 'customer.mobile_phone');
  const birth = c.birth_date == null ? null : (s(c.birth_date) ?? '');
  if (birth !== null && !/^\d{4}-\d{2}-\d{2}$/.test(birth)) throw new Invalid('customer.birth_date must be YYYY-MM-DD', 'customer.birth_date');
  const a: Obj = b.billing_address ?? {};
  for (const f of ['address_line_1', 'postal_code', 'city', 'country_code']) required(a[f], `billing_address.${f}`);
  if (!COUNTRIES.includes(a.country_code))
    throw new Invalid(`billing_address.country_code must be one of ${COUNTRIES.join(', ')}`, 'billing_address.country_code');
  // Spain: the customer's DNI/NIE.
  if (a.country_code === 'ES') required(c.national_id, 'customer.national_id');
  const items = itemsTotal(b.items, 'items');
  if (items !== amount) throw new Invalid("amount must be the sum of the items' total_amount", 'amount');
  const urls: Obj = b.urls ?? {};
  for (const u of ['return_url', 'cancel_url']) if (!/^https?:\/\//.test(s(urls[u]) ?? '')) throw new Invalid(`urls.${u} must be an http(s) URL`, `urls.${u}`);
  if (urls.notification_url != null && !/^https?:\/\//.test(String(urls.notification_url)))
    throw new Invalid('urls.notification_url must be an http(s) URL', 'urls.notification_url');
  if (birth !== null && age(birth) < 18) throw new Invalid('The customer must be of legal age', 'customer.birth_date', 'CUSTOMER_UNDERAGE', 422);
  const limits = PRODUCTS[b.product as keyof typeof PRODUCTS];
  if (amount < limits.min || amount > limits.max) {
    throw new Invalid(`amount must be from ${limits.min / 100} to ${limits.max / 100} EUR for ${b.product}`, 'amount', 'AMOUNT_OUT_OF_RANGE', 422);
  }
  return amount;
}
