// Exact conversion between minor units and decimal strings, per currency exponent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exponentOf, fromDecimalString, toDecimalString } from './money.ts';
import { CURRENCIES } from './schemas/common.ts';

describe('money', () => {
  it('uses the ISO 4217 exponent: JPY 0, EUR 2, BHD 3', () => {
    expect([exponentOf('JPY'), exponentOf('EUR'), exponentOf('BHD'), exponentOf('KWD'), exponentOf('CLP')]).toEqual([0, 2, 3, 3, 0]);
    expect(toDecimalString(12_345, 'EUR')).toBe('123.45');
    expect(toDecimalString(5, 'EUR')).toBe('0.05');
    expect(toDecimalString(0, 'EUR')).toBe('0.00');
    expect(toDecimalString(500, 'JPY')).toBe('500');
    expect(toDecimalString(1, 'BHD')).toBe('0.001');
    expect(toDecimalString(Number.MAX_SAFE_INTEGER, 'EUR')).toBe('90071992547409.91');
  });

  it('parses decimals exactly and refuses more decimals than the currency has', () => {
    expect(fromDecimalString('0.29', 'EUR')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(fromDecimalString('1.10', 'BHD')).toBe(1_100);
    expect(fromDecimalString('12', 'EUR')).toBe(1_200);
    expect(() => fromDecimalString('1.5', 'JPY')).toThrow(RangeError);
    expect(() => fromDecimalString('1.234', 'EUR')).toThrow(RangeError);
    expect(() => fromDecimalString('abc', 'EUR')).toThrow(RangeError);
  });

  it('round-trips every safe amount in every currency', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.constantFrom(...CURRENCIES), (amount, currency) => {
        expect(fromDecimalString(toDecimalString(amount, currency), currency)).toBe(amount);
      }),
      { numRuns: 2_000 },
    );
  });
});
