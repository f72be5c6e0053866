// Amounts are integers in the currency's minor unit. Converting to a decimal string (for display, and for providers
// that take decimals) is exact: digits are moved, never divided as floats.
import type { z } from 'zod';
import type { Currency } from './schemas/common.ts';

type CurrencyCode = z.infer<typeof Currency>;

/** ISO 4217 minor-unit exponents that are not 2. */
const EXPONENT: Partial<Record<CurrencyCode, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

export const exponentOf = (currency: CurrencyCode): number => EXPONENT[currency] ?? 2;

/** 12345 EUR -> "123.45"; 500 JPY -> "500"; 1 BHD -> "0.001". */
export function toDecimalString(minor: number, currency: CurrencyCode): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount ${minor} is not a safe integer`);
  const e = exponentOf(currency);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor));
  if (e === 0) return sign + digits;
  const padded = digits.padStart(e + 1, '0');
  return `${sign}${padded.slice(0, -e)}.${padded.slice(-e)}`;
}

/** "123.45" EUR -> 12345; refuses more decimals than the currency has. */
export function fromDecimalString(decimal: string, currency: CurrencyCode): number {
  const e = exponentOf(currency);
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!m) throw new RangeError(`"${decimal}" is not a decimal amount`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > e) throw new RangeError(`"${decimal}" has more than ${e} decimals for ${currency}`);
  const minor = Number(m[2] + frac.padEnd(e, '0'));
  if (!Number.isSafeInteger(minor)) throw new RangeError(`"${decimal}" is too large`);
  return m[1] && minor !== 0 ? -minor : minor;
}
