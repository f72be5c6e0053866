// Mondu's request validation as the sandbox imitates it: every problem as {name: dotted path, details}, answered
// 422 {"status": 422, "errors": [...]} (the shape of https://docs.mondu.ai/reference/errors). Mondu's published rules
// (enums of payment_method, language, state_flow; required fields) are checked first by the connector's
// fixtures/rules.json in imitation.ts; what is here is the sandbox's own (amounts adding up, net terms, currencies).
export interface FieldError {
  name: string;
  details: string;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const present = (v: unknown) => v !== undefined && v !== null && v !== '';
const isInt = (v: unknown, min = 0) => typeof v === 'number' && Number.isInteger(v) && v >= min;

export const CURRENCIES = ['EUR', 'GBP'];
export const NET_TERMS = [7, 14, 30, 45, 60, 90];

export function validateOrder(b: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const missing = (name: string, v: unknown) => {
    if (!present(v)) errors.push({ name, details: 'is missing' });
  };
  missing('currency', b.currency);
  if (present(b.currency) && !CURRENCIES.includes(b.currency as string)) errors.push({ name: 'currency', details: 'is not included in the list' });
  missing('external_reference_id', b.external_reference_id);
  if (!isInt(b.gross_amount_cents, 1)) errors.push({ name: 'gross_amount_cents', details: 'must be a positive integer' });
  for (const k of ['net_price_cents', 'tax_cents'] as const) if (b[k] !== undefined && !isInt(b[k])) errors.push({ name: k, details: 'must be an integer' });
  if (
    isInt(b.net_price_cents) &&
    isInt(b.tax_cents) &&
    isInt(b.gross_amount_cents) &&
    (b.net_price_cents as number) + (b.tax_cents as number) !== b.gross_amount_cents
  ) {
    errors.push({ name: 'gross_amount_cents', details: 'must equal net_price_cents + tax_cents' });
  }
  if (b.net_term !== undefined && !NET_TERMS.includes(b.net_term as number))
    errors.push({ name: 'net_term', details: `must be one of the net terms of the account (${NET_TERMS.join(', ')})` });
  const buyer = obj(b.buyer);
  for (const k of ['email', 'first_name', 'last_name', 'company_name']) missing(`buyer.${k}`, buyer[k]);
  const billing = obj(b.billing_address);
  for (const k of ['address_line1', 'city', 'zip_code', 'country_code']) missing(`billing_address.${k}`, billing[k]);
  for (const k of ['success_url', 'cancel_url', 'declined_url']) missing(k, b[k]);
  const lines = Array.isArray(b.lines) ? b.lines : [];
  if (!lines.length) errors.push({ name: 'lines', details: 'is missing' });
  let net = 0;
  lines.forEach((raw, i) => {
    const line = obj(raw);
    const items = Array.isArray(line.line_items) ? line.line_items : [];
    if (!items.length) errors.push({ name: `lines.${i}.line_items`, details: 'is missing' });
    for (const k of ['shipping_price_cents', 'discount_cents'] as const)
      if (line[k] !== undefined && !isInt(line[k])) errors.push({ name: `lines.${i}.${k}`, details: 'must be an integer' });
    net += ((line.shipping_price_cents as number) || 0) - ((line.discount_cents as number) || 0);
    items.forEach((rawItem, j) => {
      const it = obj(rawItem);
      const at = `lines.${i}.line_items.${j}`;
      missing(`${at}.title`, it.title);
      if (!isInt(it.quantity, 1)) errors.push({ name: `${at}.quantity`, details: 'must be an integer' });
      if (!isInt(it.net_price_per_item_cents)) errors.push({ name: `${at}.net_price_per_item_cents`, details: 'must be an integer' });
      if (it.tax_cents !== undefined && !isInt(it.tax_cents)) errors.push({ name: `${at}.tax_cents`, details: 'must be an integer' });
      net += isInt(it.net_price_cents) ? (it.net_price_cents as number) : ((it.net_price_per_item_cents as number) || 0) * ((it.quantity as number) || 0);
    });
  });
  if (!errors.length && isInt(b.net_price_cents) && net !== b.net_price_cents) {
    errors.push({ name: 'net_price_cents', details: `does not match the lines (${net})` });
  }
  return errors;
}

export function validateInvoice(b: Obj, left: number): FieldError[] {
  const errors: FieldError[] = [];
  if (!present(b.external_reference_id)) errors.push({ name: 'external_reference_id', details: 'is missing' });
  if (!present(b.invoice_url)) errors.push({ name: 'invoice_url', details: 'is missing' });
  if (!isInt(b.gross_amount_cents, 1)) errors.push({ name: 'gross_amount_cents', details: 'must be a positive integer' });
  else if ((b.gross_amount_cents as number) > left) errors.push({ name: 'gross_amount_cents', details: `exceeds the amount left to invoice (${left})` });
  if (b.tax_cents !== undefined && !isInt(b.tax_cents)) errors.push({ name: 'tax_cents', details: 'must be an integer' });
  return errors;
}

export function validateCreditNote(b: Obj, left: number): FieldError[] {
  const errors: FieldError[] = [];
  if (!present(b.external_reference_id)) errors.push({ name: 'external_reference_id', details: 'is missing' });
  if (!isInt(b.gross_amount_cents, 1)) errors.push({ name: 'gross_amount_cents', details: 'must be a positive integer' });
  else if ((b.gross_amount_cents as number) > left) errors.push({ name: 'gross_amount_cents', details: `exceeds what is left of the invoice (${left})` });
  if (b.tax_cents !== undefined && !isInt(b.tax_cents)) errors.push({ name: 'tax_cents', details: 'must be an integer' });
  return errors;
}
