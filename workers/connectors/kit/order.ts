// Reading the order a job carries (domain/job.ts ProviderOrder: JSON objects the merchant sent, already checked by
// the gateway's schemas), for the request transformers: loose accessors that give undefined for what is absent or
// not of the type, and order lines to a provider's basket (per-unit prices, tax shares). These are OUR data; a
// provider's answer is never read with them (kit/answer.ts readAnswer and the connector's zod schemas).
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';

export type Obj = Record<string, unknown>;
/** A JSON object, or {} for anything else (so that paths can be followed: obj(obj(o.billing).address).zip). */
export const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
/** A string with something in it (not empty, not only blanks), as given; else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
/** str, trimmed. */
export const trimmed = (v: unknown): string | undefined => str(v)?.trim();
/** str, or a number written out (ids and house numbers some merchants send as numbers). */
export const text = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : str(v));
/** An integer, or a string of digits as one. */
export const int = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;

/** The object without its undefined fields (a provider that refuses `null` or an absent value sent as a key). */
export function defined<T extends Obj>(o: T): T {
  const out = { ...o };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** An order line as spec 2.4 has it (amounts in minor units; `amount` is the line's gross total). */
export interface OrderLine {
  product_name?: string;
  quantity?: number;
  amount?: number;
  tax_amount?: number | null;
  total_tax_amount?: number | null;
  tax_percentage?: number | null;
  product_id?: string | null;
  category?: string | null;
  brand?: string | null;
  product_type?: string | null;
}
export const linesOf = (v: unknown): OrderLine[] => (Array.isArray(v) ? (v as OrderLine[]) : []);
export const lineTax = (l: OrderLine) => l.total_tax_amount ?? l.tax_amount ?? 0;

/** The tax of a part of the order: the order's tax in proportion (exact for the whole order). */
export function taxShare(amount: number, order: ProviderOrder | undefined): number {
  const lines = linesOf(order?.order_details);
  const gross = lines.reduce((t, l) => t + (l.amount ?? 0), 0);
  const tax = order?.order_tax_amount ?? lines.reduce((t, l) => t + lineTax(l), 0);
  if (!gross || !tax) return 0;
  return amount === gross ? tax : Math.round((tax * amount) / gross);
}

/**
 * A line priced per unit, for providers that take a unit price and a quantity: the line's gross total and tax (minor
 * units), and a quantity the total divides by. A total that does not divide is one unit named "3 × Name", so unit
 * price × quantity is the total exactly.
 */
export function perUnit(l: OrderLine | Obj, i: number): { name: string; quantity: number; gross: number; tax: number; unitGross: number } {
  const gross = int(l.amount) ?? 0;
  const tax = int(l.total_tax_amount) ?? int(l.tax_amount) ?? 0;
  const given = int(l.quantity) ?? 1;
  const name = str(l.product_name) ?? `Item ${i + 1}`;
  const whole = given >= 1 && gross % given === 0;
  const quantity = whole ? given : 1;
  return { name: whole ? name : `${given} × ${name}`, quantity, gross, tax, unitGross: gross / quantity };
}

/**
 * A capture's invoice, for providers where a capture is an invoice (billie, mondu): the merchant's invoice number
 * (capture_metadata.invoice_data.merchant_invoice_ref, else the capture's metadata.invoice_number), its URL (the
 * capture's metadata.invoice_url, else the order's), the lines shipped and their tax (the lines', else the order's
 * tax in proportion to the amount).
 */
export function captureInvoice(job: ConnectorJob): { number: string | undefined; url: string | undefined; lines: OrderLine[]; tax: number } {
  const d = job.capture_details;
  const md = obj(d?.metadata);
  const lines = linesOf(d?.order_details);
  return {
    number: str(obj(obj(d?.capture_metadata).invoice_data).merchant_invoice_ref) ?? str(md.invoice_number),
    url: str(md.invoice_url) ?? str(obj(job.order?.metadata).invoice_url),
    lines,
    tax: lines.length ? lines.reduce((t, l) => t + lineTax(l), 0) : taxShare(job.amount, job.order),
  };
}
