// Avarda's request rules as the sandbox checks them, from Avarda's own pages (the same the connector's schemas are
// written from; sources: workers/connectors/avarda/fixtures/SOURCES.md): OrderReference at most 20 and TranId at most
// 36 (checkout-3/order-management), PosId 32; item Description and Notes at most 35, amounts with at most 2 decimals
// (checkout-3/error-codes: "Maximum number of decimal places allowed is 2."); the cancel's reason must be specified;
// prefilled names and addresses within error codes 126–131. Every problem is one entry of Avarda's published error
// body {Errors: [{Property, ErrorCode, ErrorMessage}], StatusCode: 400}.
export interface AvardaError {
  Property: string;
  ErrorCode: number;
  ErrorMessage: string;
}
type Obj = Record<string, any>;

export const MARKETS = ['SE', 'NO', 'DK', 'FI'];
/** The form's languages (Avarda's PrestaShop module `getLanguageById`). */
export const LANGUAGES = ['English', 'Swedish', 'Finnish', 'Norwegian', 'Danish', 'Estonian'];

/** Avarda reads request fields case-insensitively (its docs print PascalCase, its plugins send camelCase). */
export function camelKeys(v: unknown): any {
  if (Array.isArray(v)) return v.map(camelKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.charAt(0).toLowerCase() + k.slice(1), camelKeys(x)]));
  return v;
}

const add = (e: AvardaError[], Property: string, ErrorMessage: string, ErrorCode = 0) => {
  e.push({ Property, ErrorCode, ErrorMessage });
};
const twoDecimals = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;
/**
 * A JSON number or a numeric string: Avarda's error-codes example sends `"amount": "100.1234"` and `"quantity": "1"`
 * and is refused only for the decimal places, so it reads numeric strings as numbers (the WooCommerce plugin sends
 * its amounts as strings).
 */
export const num = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return null;
};
/** A decimal in the major unit -> minor units (every currency Avarda takes has two decimals). */
export const minor = (v: unknown) => Math.round((num(v) ?? 0) * 100);

function amount(e: AvardaError[], v: unknown, field: string, required: boolean) {
  if (v === undefined || v === null) {
    if (required) add(e, field, `The ${field.split('.').at(-1)} field is required.`);
    return;
  }
  const n = num(v);
  if (n === null) add(e, field, 'The value is not a valid decimal.');
  else if (!twoDecimals(n)) add(e, field, 'Maximum number of decimal places allowed is 2.');
}

function text(e: AvardaError[], v: unknown, field: string, max: number, opts: { required?: boolean; code?: number; message?: string } = {}) {
  if (v === undefined || v === null || v === '') {
    if (opts.required) add(e, field, `The ${field.split('.').at(-1)} field is required.`);
    return;
  }
  if (typeof v !== 'string') add(e, field, 'The value is not a valid string.');
  else if (v.length > max)
    add(e, field, opts.message ?? `The field ${field.split('.').at(-1)} must be a string with a maximum length of ${max}.`, opts.code ?? 0);
}

export function validateItems(items: unknown, e: AvardaError[], at = 'Items'): void {
  if (!Array.isArray(items) || !items.length) return add(e, at, `The ${at} field is required.`);
  items.forEach((raw, i) => {
    const it: Obj = raw && typeof raw === 'object' ? raw : {};
    const f = `${at}[${i}]`;
    text(e, it.description, `${f}.Description`, 35, { required: true });
    text(e, it.notes, `${f}.Notes`, 35);
    amount(e, it.amount, `${f}.Amount`, true);
    amount(e, it.taxAmount, `${f}.TaxAmount`, false);
    if (it.taxCode !== undefined && typeof it.taxCode !== 'string') add(e, `${f}.TaxCode`, 'The value is not a valid string.');
    const q = num(it.quantity);
    if (it.quantity !== undefined && (q === null || !Number.isInteger(q) || q < 1)) add(e, `${f}.Quantity`, 'The value is not a valid quantity.');
  });
}

/** The items' total in minor units (amount x quantity; a row without a quantity is one). */
export const itemsTotal = (items: Obj[]) => items.reduce((t, it) => t + minor(it.amount) * (num(it.quantity) ?? 1), 0);

/** The activation's and the return's body (the same fields, docs.avarda.com order-management). */
export function validateOrder(b: Obj): AvardaError[] {
  const e: AvardaError[] = [];
  validateItems(b.items, e);
  text(e, b.orderReference, 'OrderReference', 20, { required: true });
  text(e, b.tranId, 'TranId', 36);
  text(e, b.posId, 'PosId', 32);
  return e;
}

export function validateRefund(b: Obj): AvardaError[] {
  const e: AvardaError[] = [];
  amount(e, b.amount, 'Amount', true);
  const n = num(b.amount);
  if (n !== null && n <= 0) add(e, 'Amount', 'The amount must be positive.');
  return e;
}

export function validateCancel(b: Obj): AvardaError[] {
  const e: AvardaError[] = [];
  text(e, b.reason, 'Reason', 4000, { required: true });
  return e;
}

function address(e: AvardaError[], a: unknown, at: string) {
  if (a === undefined || a === null) return;
  const x: Obj = typeof a === 'object' ? a : {};
  text(e, x.name, `${at}.Name`, 40, { code: 126, message: 'Name can not be longer than 40 characters' });
  text(e, x.address1, `${at}.Address1`, 40, { code: 127, message: 'Address 1 can not be longer than 40 characters' });
  text(e, x.city, `${at}.City`, 30, { code: 128, message: 'City can not be longer than 30 characters' });
  text(e, x.firstName, `${at}.FirstName`, 40, { code: 130, message: 'First name can not be longer than 40 characters' });
  text(e, x.lastName, `${at}.LastName`, 40, { code: 131, message: 'Last name can not be longer than 40 characters' });
  if (x.country != null && !MARKETS.includes(x.country)) add(e, `${at}.Country`, 'Country in invoicing address can not be set for this checkout site', 132);
}

export function validateInitialize(b: Obj): AvardaError[] {
  const e: AvardaError[] = [];
  const setup: Obj | undefined = b.checkoutSetup;
  const mode = setup?.mode ?? 'B2C';
  if (setup !== undefined && (typeof setup !== 'object' || setup === null)) add(e, 'CheckoutSetup', 'The CheckoutSetup field is invalid.');
  if (mode !== 'B2C' && mode !== 'B2B') add(e, 'CheckoutSetup.Mode', `The value '${String(mode)}' is not valid for Mode.`);
  if (setup?.language !== undefined && !LANGUAGES.includes(setup.language))
    add(e, 'CheckoutSetup.Language', `The value '${String(setup.language)}' is not valid for Language.`);
  for (const k of ['invoicingCountries', 'deliveryCountries'] as const) {
    const v = setup?.[k];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.some((c) => !MARKETS.includes(c)))
      add(e, `CheckoutSetup.${k[0]!.toUpperCase()}${k.slice(1)}`, 'Checkout site does not exists', 300);
  }
  const url = setup?.completedNotificationUrl;
  if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\//.test(url)))
    add(e, 'CheckoutSetup.CompletedNotificationUrl', 'The value is not a valid absolute URL.');
  validateItems(b.items, e);
  // The 20-character limit is published for the activation's OrderReference; the same reference is taken here.
  text(e, b.extraIdentifiers?.orderReference, 'ExtraIdentifiers.OrderReference', 20);
  if (mode === 'B2B' && b.b2C != null) add(e, 'B2C', 'The B2C field is not allowed in B2B mode.');
  if (mode === 'B2C' && b.b2B != null) add(e, 'B2B', 'The B2B field is not allowed in B2C mode.');
  const customer: Obj | undefined = mode === 'B2B' ? b.b2B : b.b2C;
  const at = mode === 'B2B' ? 'B2B' : 'B2C';
  address(e, customer?.invoicingAddress, `${at}.InvoicingAddress`);
  address(e, customer?.deliveryAddress, `${at}.DeliveryAddress`);
  const email = customer?.userInputs?.email;
  if (email != null && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email))) add(e, `${at}.UserInputs.Email`, 'Invalid email', 210);
  return e;
}
