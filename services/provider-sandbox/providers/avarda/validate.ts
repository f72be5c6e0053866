// Avarda's request validation as the sandbox imitates it: every problem as an ASP.NET model-state entry
// {"<Field.Path>": ["message"]}, answered 400 {type, title, status, traceId, errors} (shape UNVERIFIED: the reference
// plugin flattens an object of field -> messages).
export type FieldErrors = Record<string, string[]>;
type Obj = Record<string, any>;

export const MARKETS = ['SE', 'NO', 'DK', 'FI'];
export const LANGUAGES = ['English', 'Swedish', 'Finnish', 'Norwegian', 'Danish', 'Estonian', 'Latvian', 'Lithuanian', 'German'];

const add = (e: FieldErrors, field: string, msg: string) => { (e[field] ??= []).push(msg); };
const isMoney = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;
/** A decimal in the major unit -> minor units (every currency Avarda takes has two decimals). */
export const minor = (v: number) => Math.round(v * 100);

export function validateItems(items: unknown, e: FieldErrors, at = 'Items'): void {
  if (!Array.isArray(items) || !items.length) return add(e, at, `The ${at} field is required.`);
  items.forEach((raw, i) => {
    const it: Obj = raw && typeof raw === 'object' ? raw : {};
    const f = `${at}[${i}]`;
    if (typeof it.description !== 'string' || !it.description.trim()) add(e, `${f}.Description`, 'The Description field is required.');
    else if (it.description.length > 34) add(e, `${f}.Description`, 'The field Description must be a string with a maximum length of 34.');
    if (it.notes != null && (typeof it.notes !== 'string' || it.notes.length > 34)) add(e, `${f}.Notes`, 'The field Notes must be a string with a maximum length of 34.');
    if (!isMoney(it.amount)) add(e, `${f}.Amount`, 'The field Amount must be a non-negative amount with at most 2 decimals.');
    if (typeof it.taxCode !== 'string' || !/^\d+(\.\d+)?$/.test(it.taxCode)) add(e, `${f}.TaxCode`, 'The TaxCode field is required.');
    if (!isMoney(it.taxAmount)) add(e, `${f}.TaxAmount`, 'The field TaxAmount must be a non-negative amount with at most 2 decimals.');
    else if (isMoney(it.amount) && it.taxAmount > it.amount) add(e, `${f}.TaxAmount`, 'The field TaxAmount must not exceed Amount.');
    if (!Number.isInteger(it.quantity) || it.quantity < 1) add(e, `${f}.Quantity`, 'The field Quantity must be a positive integer.');
  });
}

/** The items' total in minor units (amount x quantity). */
export const itemsTotal = (items: Obj[]) => items.reduce((t, it) => t + minor(it.amount) * it.quantity, 0);

export function validateInitialize(b: Obj): FieldErrors {
  const e: FieldErrors = {};
  const setup: Obj | undefined = b.checkoutSetup;
  const mode = setup?.mode ?? 'B2C';
  if (setup !== undefined && (typeof setup !== 'object' || setup === null)) add(e, 'CheckoutSetup', 'The CheckoutSetup field is invalid.');
  if (mode !== 'B2C' && mode !== 'B2B') add(e, 'CheckoutSetup.Mode', `The value '${String(mode)}' is not valid for Mode.`);
  if (setup?.language !== undefined && !LANGUAGES.includes(setup.language)) add(e, 'CheckoutSetup.Language', `The value '${String(setup.language)}' is not valid for Language.`);
  for (const k of ['invoicingCountries', 'deliveryCountries'] as const) {
    const v = setup?.[k];
    if (v === undefined) continue;
    const field = `CheckoutSetup.${k[0]!.toUpperCase()}${k.slice(1)}`;
    if (!Array.isArray(v) || v.some((c) => !MARKETS.includes(c))) add(e, field, `Only ${MARKETS.join(', ')} are enabled for this client.`);
  }
  const url = setup?.completedNotificationUrl;
  if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\//.test(url))) add(e, 'CheckoutSetup.CompletedNotificationUrl', 'The field CompletedNotificationUrl must be an absolute http(s) URL.');
  validateItems(b.items, e);
  const ref = b.extraIdentifiers?.orderReference;
  if (ref != null && (typeof ref !== 'string' || ref.length > 50)) add(e, 'ExtraIdentifiers.OrderReference', 'The field OrderReference must be a string with a maximum length of 50.');
  const customer: Obj | undefined = mode === 'B2B' ? b.b2B : b.b2C;
  const other = mode === 'B2B' ? 'b2C' : 'b2B';
  if (b[other] != null) add(e, other === 'b2C' ? 'B2C' : 'B2B', `The ${other === 'b2C' ? 'B2C' : 'B2B'} field is not allowed in ${mode} mode.`);
  const email = customer?.userInputs?.email;
  if (email != null && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email))) add(e, `${mode}.UserInputs.Email`, 'The Email field is not a valid e-mail address.');
  const country = customer?.invoicingAddress?.country;
  if (country != null && !MARKETS.includes(country)) add(e, `${mode}.InvoicingAddress.Country`, `Only ${MARKETS.join(', ')} are enabled for this client.`);
  return e;
}
