// Money units once for every connector. Our amounts are integers in the currency's minor unit (cents); a provider
// takes either the same (manifest amount_unit 'minor') or decimals of the major unit ('major'), as a JSON number or a
// string. Conversions move digits (lib/money.ts), never divide floats, and refuse an amount that would round.
import { fromDecimalString, toDecimalString } from '../../../lib/money.ts';
import { Currency } from '../../../lib/schemas/common.ts';

/** The job's currency as the conversions take it (the gateway only lets ISO 4217 codes we know through). */
const code = (currency: string) => Currency.parse(currency);

/** 12345 EUR -> "123.45" (a decimal string: Unzer, Avarda's strings). */
export const majorString = (minor: number, currency: string): string => toDecimalString(minor, code(currency));

/** 12345 EUR -> 123.45 (a JSON number of the major unit: Riverty, Zaver, Billie, Ratepay...). Exact: read once from the digits. */
export const major = (minor: number, currency: string): number => Number(majorString(minor, currency));

/** A provider's major-unit amount (123.45 or "123.45") -> 12345; throws a RangeError for more decimals than the currency has. */
export const minorOf = (amount: number | string, currency: string): number =>
  fromDecimalString(typeof amount === 'number' ? String(amount) : amount, code(currency));

/** The amount in the unit a provider takes (its manifest's amount_unit). */
export const inUnit = (minor: number, currency: string, unit: 'minor' | 'major'): number => (unit === 'minor' ? minor : major(minor, currency));

/**
 * The tax rate in percent of a gross amount and its tax (minor units), rounded to `decimals` places (19.0, 7.0, 25.5):
 * for providers that take a rate per line and get gross and tax from us.
 */
export function taxRatePercent(gross: number, tax: number, decimals = 2): number {
  const net = gross - tax;
  if (net <= 0 || tax <= 0) return 0;
  const f = 10 ** decimals;
  return Math.round((tax / net) * 100 * f) / f;
}
