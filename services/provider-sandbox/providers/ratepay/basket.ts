// Ratepay's shop basket rules as the sandbox imitates them: decimal amounts (at most the currency's decimals), the
// basket's gross_amount = its items + special items (docs "Basket amount validation": 422 UNPROCESSABLE_OPERATION
// SUM_OF_ITEM_AMOUNTS_NOT_MATCHING_OPERATION_AMOUNT), one vats entry per tax rate (MULTIPLE_VAT_OBJECTS_PER_TAX_RATE_NOT_ALLOWED).
// Ours, not documented (a 400 SYNTAX INVALID_FIELDS naming the field): (unit price + unit discount) x quantity = total
// for every item (Ratepay's Postman example: (18.45 - 1.55) x 2 = 33.8), and the vats adding up to the gross amount.
// Amounts are kept in minor units.
import { fromDecimalString } from '../../../../lib/money.ts';
import type { Currency } from '../../../../lib/schemas/common.ts';
import type { z } from 'zod';

export interface Refusal {
  status: number;
  category: string;
  reasons: string[];
  message: string;
}
export const refusal = (status: number, category: string, reason: string, message: string): Refusal => ({ status, category, reasons: [reason], message });
const syntax = (message: string) => refusal(400, 'SYNTAX', 'INVALID_FIELDS', message);

/** A decimal number in minor units, or a SYNTAX refusal naming the field. */
export function minor(v: unknown, currency: string, field: string): number | Refusal {
  if (typeof v !== 'number' || !Number.isFinite(v)) return syntax(`${field} must be a decimal number`);
  try {
    return fromDecimalString(String(v), currency as z.infer<typeof Currency>);
  } catch {
    return syntax(`${field} has more decimals than ${currency} allows`);
  }
}
export const isRefusal = (x: unknown): x is Refusal => typeof x === 'object' && x !== null && 'category' in x;

export interface Basket {
  partner_shop_id: string;
  shop_transaction_id: string | null;
  gross: number;
  items: number;
}

/** Checks a basket (an authorization's, or a follow-up's where items may be left out) -> its gross in minor units. */
export function readBasket(b: unknown, currency: string, where: string, itemsRequired: boolean): Basket | Refusal {
  if (typeof b !== 'object' || b === null) return syntax(`${where} is required`);
  const basket = b as Record<string, unknown>;
  if (typeof basket.partner_shop_id !== 'string' || basket.partner_shop_id === '') return syntax(`${where}.partner_shop_id is required`);
  const gross = minor(basket.gross_amount, currency, `${where}.gross_amount`);
  if (isRefusal(gross)) return gross;
  if (gross <= 0) return syntax(`${where}.gross_amount must be positive`);
  const items = [...(Array.isArray(basket.items) ? basket.items : []), ...(Array.isArray(basket.special_items) ? basket.special_items : [])];
  if (itemsRequired && items.length === 0) return syntax(`${where}.items must hold at least one item`);
  let total = 0;
  for (const [i, raw] of items.entries()) {
    const it = (raw ?? {}) as Record<string, unknown>;
    const at = `${where}.items[${i}]`;
    if (typeof it.article_number !== 'string' || typeof it.name !== 'string') return syntax(`${at}.article_number and name are required`);
    if (!Number.isInteger(it.quantity) || (it.quantity as number) < 1) return syntax(`${at}.quantity must be a positive integer`);
    if (typeof it.tax_rate !== 'number' || it.tax_rate < 0) return syntax(`${at}.tax_rate is required`);
    const q = it.quantity as number;
    const gu = minor(it.gross_unit_price, currency, `${at}.gross_unit_price`);
    const gt = minor(it.gross_total_price, currency, `${at}.gross_total_price`);
    const nu = minor(it.net_unit_price, currency, `${at}.net_unit_price`);
    const nt = minor(it.net_total_price, currency, `${at}.net_total_price`);
    const gd = it.gross_unit_discount === undefined ? 0 : minor(it.gross_unit_discount, currency, `${at}.gross_unit_discount`);
    const nd = it.net_unit_discount === undefined ? 0 : minor(it.net_unit_discount, currency, `${at}.net_unit_discount`);
    for (const x of [gu, gt, nu, nt, gd, nd]) if (isRefusal(x)) return x;
    if (((gu as number) + (gd as number)) * q !== gt || ((nu as number) + (nd as number)) * q !== nt) {
      return syntax(`${at}: (unit price + unit discount) x quantity must equal the total price`);
    }
    if ((nt as number) > (gt as number)) return syntax(`${at}: net_total_price exceeds gross_total_price`);
    total += gt as number;
  }
  if (items.length > 0 && total !== gross) {
    return refusal(
      422,
      'UNPROCESSABLE_OPERATION',
      'SUM_OF_ITEM_AMOUNTS_NOT_MATCHING_OPERATION_AMOUNT',
      `${where}.gross_amount must equal the sum of items and special_items`,
    );
  }
  if (Array.isArray(basket.vats) && basket.vats.length > 0) {
    let vatTotal = 0;
    const rates = new Set<unknown>();
    for (const [i, raw] of basket.vats.entries()) {
      const v = (raw ?? {}) as Record<string, unknown>;
      if (rates.has(v.tax_rate))
        return refusal(
          422,
          'UNPROCESSABLE_OPERATION',
          'MULTIPLE_VAT_OBJECTS_PER_TAX_RATE_NOT_ALLOWED',
          `${where}.vats[${i}]: tax_rate ${String(v.tax_rate)} twice`,
        );
      rates.add(v.tax_rate);
      const net = minor(v.net_amount, currency, `${where}.vats[${i}].net_amount`);
      const tax = minor(v.tax_amount, currency, `${where}.vats[${i}].tax_amount`);
      if (isRefusal(net)) return net;
      if (isRefusal(tax)) return tax;
      vatTotal += net + tax;
    }
    if (vatTotal !== gross) return syntax(`${where}.vats must add up to gross_amount`);
  }
  return {
    partner_shop_id: basket.partner_shop_id,
    shop_transaction_id: typeof basket.shop_transaction_id === 'string' ? basket.shop_transaction_id : null,
    gross,
    items: items.length,
  };
}
