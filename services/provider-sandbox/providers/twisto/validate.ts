// Twisto's request validation as the sandbox imitates it. Twisto's published rules (required fields, lengths, enums:
// workers/connectors/twisto/fixtures/rules.json, read from docs.twisto.cz psp-api/api/*) are checked first, by the same
// file the connector's tests use (`breach`); what rules.json cannot say (the decimal pattern, quantity >= 1, a date,
// the items adding up) is checked here. The answer is Django REST framework's field errors, nested like the request
// ({"shopper": {"email": ["This field is required."]}}): Twisto's exact error bodies are UNVERIFIED
// (workers/connectors/twisto/errors.ts reads both DRF shapes).
import { readFileSync } from 'node:fs';
import { firstBreach, RequestRules } from '../../../../lib/request-rules.ts';

type Obj = Record<string, any>;
const RULES = JSON.parse(readFileSync(new URL('../../../../workers/connectors/twisto/fixtures/rules.json', import.meta.url), 'utf8'));
/** Twisto's published rules of one call. */
export const rules = (call: 'checkout' | 'charge' | 'refund') => RequestRules.parse(RULES[call]);
export type FieldErrors = { [k: string]: string[] | FieldErrors | FieldErrors[] };

export const AMOUNT = /^-?\d{0,8}(\.\d{0,2})?$/;
export const CURRENCIES = ['CZK', 'PLN', 'EUR'];
const REQUIRED = 'This field is required.';
const ITEM_TYPES = ['sku', 'tax', 'shipping', 'discount', 'store_credit'];

/** Twisto's decimal string -> minor units (the imitation keeps integers). */
export const minor = (s: string) => {
  const [whole, frac = ''] = s.replace('-', '').split('.');
  const v = Number(whole || '0') * 100 + Number(`${frac}00`.slice(0, 2));
  return s.startsWith('-') ? -v : v;
};
export const decimal = (n: number) => `${n < 0 ? '-' : ''}${Math.floor(Math.abs(n) / 100)}.${String(Math.abs(n) % 100).padStart(2, '0')}`;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const maxLen = (n: number) => `Ensure this field has no more than ${n} characters.`;

function text(errors: FieldErrors, b: Obj, key: string, opts: { required?: boolean; max?: number } = {}) {
  const v = b[key];
  if (v === undefined || v === null || v === '') {
    if (opts.required) errors[key] = [REQUIRED];
    return;
  }
  if (typeof v !== 'string') errors[key] = ['Not a valid string.'];
  else if (opts.max && v.length > opts.max) errors[key] = [maxLen(opts.max)];
}

function amount(errors: FieldErrors, b: Obj, key: string) {
  const v = b[key];
  if (v === undefined || v === null || v === '') errors[key] = [REQUIRED];
  else if (typeof v !== 'string' || !AMOUNT.test(v) || v === '' || v === '-') errors[key] = ['A valid number is required.'];
}

/** A message at a path (`order.items[1].name`) as DRF nests it: {"order": {"items": [{}, {"name": [message]}]}}. */
export function nested(field: string, message: string): FieldErrors {
  const parts = field.split('.').flatMap((p): (string | number)[] => {
    const m = /^(.*)\[(\d+)\]$/.exec(p);
    return m ? [m[1]!, Number(m[2])] : [p];
  });
  let v: string[] | FieldErrors | FieldErrors[] = [message];
  for (let i = parts.length - 1; i >= 0; i--) {
    const k = parts[i]!;
    if (typeof k === 'number') {
      const list: FieldErrors[] = Array.from({ length: k + 1 }, () => ({}));
      // A list item is an object of its fields' errors; a message about the item itself is DRF's non_field_errors.
      list[k] = Array.isArray(v) ? { non_field_errors: v.filter((x): x is string => typeof x === 'string') } : v;
      v = list;
    } else v = { [k]: v };
  }
  return Array.isArray(v) ? { non_field_errors: v.filter((x): x is string => typeof x === 'string') } : v;
}

/** The first of Twisto's published rules `body` breaks, as DRF's field error (DRF's messages), or null. */
export function breach(call: 'checkout' | 'charge' | 'refund', body: unknown): FieldErrors | null {
  const b = firstBreach(rules(call), body);
  if (!b) return null;
  const max = /at most (\d+) characters/.exec(b.message);
  const message = b.message.endsWith('is required')
    ? REQUIRED
    : max
      ? maxLen(Number(max[1]))
      : b.message.includes('must be one of')
        ? 'Not a valid choice.'
        : 'Not a valid string.';
  return nested(b.field, message);
}

const put = (errors: FieldErrors, key: string, sub: FieldErrors) => {
  if (Object.keys(sub).length) errors[key] = sub;
};

/** POST /checkouts. */
export function validateCheckout(b: Obj): FieldErrors {
  const errors: FieldErrors = {};
  if (b.type !== undefined && !['standard', 'pay-in-three'].includes(b.type)) errors.type = [`"${b.type}" is not a valid choice.`];
  if (!isObj(b.config)) errors.config = { redirect_uri: [REQUIRED] };
  else {
    const c: FieldErrors = {};
    text(c, b.config, 'redirect_uri', { required: true, max: 1000 });
    put(errors, 'config', c);
  }
  if (!isObj(b.shopper)) errors.shopper = { email: [REQUIRED] };
  else {
    const s: FieldErrors = {};
    const sh = b.shopper;
    text(s, sh, 'email', { required: true });
    if (!s.email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(sh.email)) s.email = ['Enter a valid email address.'];
    for (const k of ['first_name', 'middle_name', 'last_name', 'last_name2']) text(s, sh, k, { max: 40 });
    text(s, sh, 'phone', { max: 20 });
    text(s, sh, 'personal_id', { max: 11 });
    if (sh.birth_date !== undefined && !(typeof sh.birth_date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(sh.birth_date))) {
      s.birth_date = ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'];
    }
    if (sh.billing_address !== undefined && sh.billing_address !== null) {
      const a: FieldErrors = {};
      if (!isObj(sh.billing_address)) a.non_field_errors = ['Invalid data. Expected a dictionary.'];
      else for (const k of ['line1', 'line2', 'city', 'state', 'postal_code', 'country']) text(a, sh.billing_address, k, { max: 255 });
      put(s, 'billing_address', a);
    }
    put(errors, 'shopper', s);
  }
  if (!isObj(b.order)) errors.order = { amount: [REQUIRED], currency: [REQUIRED], items: [REQUIRED] };
  else {
    const o: FieldErrors = {};
    const ord = b.order;
    text(o, ord, 'reference', { max: 200 });
    amount(o, ord, 'amount');
    if (!CURRENCIES.includes(ord.currency)) o.currency = ord.currency ? [`"${ord.currency}" is not a valid choice.`] : [REQUIRED];
    if (!Array.isArray(ord.items) || ord.items.length === 0) o.items = [ord.items === undefined ? REQUIRED : 'This list may not be empty.'];
    else {
      const itemErrors: FieldErrors[] = ord.items.map((it: unknown) => {
        const e: FieldErrors = {};
        if (!isObj(it)) return { non_field_errors: ['Invalid data. Expected a dictionary.'] };
        text(e, it, 'name', { required: true, max: 255 });
        amount(e, it, 'amount');
        if (!Number.isInteger(it.quantity)) e.quantity = [it.quantity === undefined ? REQUIRED : 'A valid integer is required.'];
        else if (it.quantity < 1) e.quantity = ['Ensure this value is greater than or equal to 1.'];
        if (!ITEM_TYPES.includes(it.type)) e.type = [it.type === undefined ? REQUIRED : `"${it.type}" is not a valid choice.`];
        return e;
      });
      if (itemErrors.some((e) => Object.keys(e).length)) o.items = itemErrors;
      else if (!o.amount) {
        const sum = ord.items.reduce((t: number, it: Obj) => t + minor(it.amount), 0);
        if (sum !== minor(ord.amount)) o.items = [`The items add up to ${decimal(sum)}, not the order amount ${ord.amount}.`];
      }
    }
    put(errors, 'order', o);
  }
  text(errors, b, 'merchant_reference', { required: true, max: 200 });
  return errors;
}

/** POST /charges (the checkout's own checks are the imitation's). */
export function validateCharge(b: Obj): FieldErrors {
  const errors: FieldErrors = {};
  if (!isObj(b.authority)) errors.authority = [REQUIRED];
  else {
    const a: FieldErrors = {};
    if (b.authority.type !== 'checkout_id') a.type = [b.authority.type === undefined ? REQUIRED : `"${b.authority.type}" is not a valid choice.`];
    text(a, b.authority, 'value', { required: true });
    put(errors, 'authority', a);
  }
  // Optional ("If not specified, we will generate a random one"), ≤ 140 (charge-create).
  text(errors, b, 'reference', { max: 140 });
  amount(errors, b, 'amount');
  if (!CURRENCIES.includes(b.currency)) errors.currency = b.currency ? [`"${b.currency}" is not a valid choice.`] : [REQUIRED];
  if (b.capture !== undefined && typeof b.capture !== 'boolean') errors.capture = ['Must be a valid boolean.'];
  return errors;
}

/** POST /refunds. */
export function validateRefund(b: Obj): FieldErrors {
  const errors: FieldErrors = {};
  text(errors, b, 'checkout_id', { required: true });
  text(errors, b, 'reference', { max: 140 });
  text(errors, b, 'reason', { max: 255 });
  amount(errors, b, 'amount');
  if (!errors.amount && minor(b.amount) <= 0) errors.amount = ['Ensure this value is greater than 0.'];
  return errors;
}
