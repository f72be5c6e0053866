// axytos's request validation, in its ASP.NET dialect: 400 {type, title, status, traceId, errors: {"<Field>": ["msg"]}};
// other refusals {"message": "…"}. Field names as the OpenAPI models spell them (PascalCase paths, UNVERIFIED exact texts).
import { randomBytes } from 'node:crypto';

export type Answer = { status: number; body: unknown };

export const problem = (field: string, message: string): Answer => ({
  status: 400,
  body: {
    type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1', title: 'One or more validation errors occurred.', status: 400,
    traceId: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`, errors: { [field]: [message] },
  },
});
export const refused = (status: number, message: string): Answer => ({ status, body: { message } });

export const COUNTRIES = ['AT', 'BE', 'CH', 'DE', 'FR', 'IT', 'NL'];
type Obj = Record<string, any>;
const s = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
export const cents = (v: number) => Math.round(v * 100);

/** An address of a precheck or confirm; null: valid. */
function address(a: Obj | undefined, name: string): Answer | null {
  if (!a || typeof a !== 'object') return problem(name, `The ${name} field is required.`);
  for (const [f, F] of [['firstname', 'Firstname'], ['lastname', 'Lastname'], ['addressLine1', 'AddressLine1'], ['zipCode', 'ZipCode'], ['city', 'City']] as const) {
    if (!s(a[f])) return problem(`${name}.${F}`, `The ${F} field is required.`);
  }
  if (!COUNTRIES.includes(a.country)) return problem(`${name}.Country`, `The Country field must be one of ${COUNTRIES.join(', ')}.`);
  return null;
}

/** The basket: positions whose gross totals add up to grossTotal (to the cent); null: valid. */
export function basket(b: Obj | undefined): Answer | null {
  if (!b || typeof b !== 'object') return problem('Basket', 'The Basket field is required.');
  if (!num(b.grossTotal) || !num(b.netTotal)) return problem('Basket.GrossTotal', 'GrossTotal and NetTotal must be non-negative numbers.');
  if (b.currency !== undefined && b.currency !== 'EUR') return problem('Basket.Currency', 'The Currency field must be EUR.');
  if (!Array.isArray(b.positions) || b.positions.length === 0) return problem('Basket.Positions', 'The Positions field must not be empty.');
  let gross = 0;
  let net = 0;
  for (const [i, p] of (b.positions as Obj[]).entries()) {
    if (!s(p.productId)) return problem(`Basket.Positions[${i}].ProductId`, 'The ProductId field is required.');
    if (!Number.isInteger(p.quantity) || p.quantity < 1) return problem(`Basket.Positions[${i}].Quantity`, 'Quantity must be a positive integer.');
    if (!num(p.grossPositionTotal) || !num(p.netPositionTotal)) return problem(`Basket.Positions[${i}].GrossPositionTotal`, 'Position totals must be non-negative numbers.');
    if (cents(p.netPositionTotal) > cents(p.grossPositionTotal)) return problem(`Basket.Positions[${i}].NetPositionTotal`, 'NetPositionTotal must not exceed GrossPositionTotal.');
    gross += cents(p.grossPositionTotal);
    net += cents(p.netPositionTotal);
  }
  if (gross !== cents(b.grossTotal)) return problem('Basket.GrossTotal', `GrossTotal ${b.grossTotal} does not match the positions' sum ${gross / 100}.`);
  if (net !== cents(b.netTotal)) return problem('Basket.NetTotal', `NetTotal ${b.netTotal} does not match the positions' sum ${net / 100}.`);
  return null;
}

/** What precheck and confirm both carry: the buyer, the addresses, the basket. */
export function order(b: Obj): Answer | null {
  const pd = b.personalData;
  if (!pd || typeof pd !== 'object') return problem('PersonalData', 'The PersonalData field is required.');
  if (!s(pd.email)) return problem('PersonalData.Email', 'The Email field is required.');
  if (pd.dateOfBirth !== undefined && !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2})?/.test(String(pd.dateOfBirth))) return problem('PersonalData.DateOfBirth', 'DateOfBirth is not a date.');
  if (pd.gender !== undefined && !['M', 'F', 'D'].includes(pd.gender)) return problem('PersonalData.Gender', 'Gender must be M, F or D.');
  if (pd.company !== undefined && !s(pd.company?.name)) return problem('PersonalData.Company.Name', 'The Name field is required for a company.');
  return address(b.invoiceAddress, 'InvoiceAddress') ?? (b.deliveryAddress !== undefined ? address(b.deliveryAddress, 'DeliveryAddress') : null) ?? basket(b.basket);
}
