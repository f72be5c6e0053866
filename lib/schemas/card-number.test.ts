// Card number detection (issue 19, item 10): test PANs found however written, ids, amounts, phone numbers, IBANs and
// timestamps left alone.
import { describe, expect, it } from 'vitest';
import { cardNumberIn, findCardNumber, luhnValid, maskCardNumbers } from './card-number.ts';

const PANS = [
  '4111111111111111',
  '4111 1111 1111 1111',
  '4111-1111-1111-1111',
  '5555555555554444',
  '2223003122003222',
  '378282246310005',
  '3782 822463 10005',
  '6011111111111117',
  '3530111333300000',
  '30569309025904',
  '4222222222222',
  '6200000000000005',
  '4000056655665556',
  '6759649826438453', // Maestro, 16
];

describe('luhnValid', () => {
  it('passes valid numbers and fails one digit off', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('')).toBe(false);
  });
});

describe('findCardNumber', () => {
  it.each(PANS)('finds %s on its own and inside text', (pan) => {
    expect(findCardNumber(pan)).toBe(pan);
    expect(findCardNumber(`card: ${pan}, exp 12/29`)).toBe(pan);
    expect(findCardNumber(`(${pan})`)).toBe(pan);
    expect(findCardNumber(`ref_${pan}`)).toBe(pan);
  });

  it.each([
    // Ids: ours, uuids, merchants' references with digits inside letters.
    'pay_4111111111111111abcdefghij',
    'cus_01HZX4111111111111111Z',
    '550e8400-e29b-41d4-a716-446655440000',
    'ORDER4111111111111111',
    'INV-2024-000123',
    'pay_AbCdEfGhIjKlMnOpQrStUvWxYz',
    // Merchants' references of digit groups not laid out as a card (found by the connector matrix: a reference
    // "<n>-<Date.now()>" was refused at random), each Luhn-valid with an issuer's start once the separators go.
    '3-1764078123456',
    '4-17640781234562',
    '2024-12345678901235',
    '41-1111-1111-1111-6',
    // Amounts and numbers that are not card numbers: Luhn-invalid, too short, too long, not an issuer's start.
    '4111111111111112',
    '123456789012',
    '411111111111',
    '41111111111111111111',
    '1234567812345670',
    '9999999999999995',
    '0000000000000000',
    '1000000000000009',
    '8888888888888888',
    // Phone numbers: international (+), national (0), trunk prefix (00), US.
    '+49 4111 1111 1111 11',
    '+4541111111111111',
    '+1 415 555 2671',
    '0041 4111 1111 1111',
    '(415) 555-2671',
    '0151 2345 6789',
    // IBANs, grouped and compact.
    'DE89 3704 0044 0532 0130 00',
    'DE89370400440532013000',
    'DE62 3704 0044 0532 0130 01',
    'DE62370400440532013001',
    'GB29 NWBK 6016 1331 9268 19',
    'FR14 2004 1010 0505 0001 3M02 606',
    // Timestamps: ISO 8601, epoch seconds, milliseconds and microseconds, compact.
    '2024-05-01T12:34:56.789Z',
    '1714566896',
    '1714566896789',
    '1714566896789123',
    '20240501123456',
    '20240501123456789',
  ])('leaves %s alone', (text) => {
    expect(findCardNumber(text)).toBeNull();
  });

  it('an IBAN whose digits alone would be a card number is still an IBAN: only its place keeps them apart', () => {
    expect(findCardNumber('370400440532013001')).toBe('370400440532013001');
    // Grouped as an IBAN (a last group of 2), not as a card is printed.
    expect(findCardNumber('3704 0044 0532 0130 01')).toBeNull();
    expect(findCardNumber('pay to DE62 3704 0044 0532 0130 01 today')).toBeNull();
  });
});

describe('cardNumberIn', () => {
  it('names the path of a card number at any depth, in values, integers and keys', () => {
    expect(cardNumberIn({ a: { b: [1, 'x', { c: 'pan 4111 1111 1111 1111' }] } })).toEqual(['a', 'b', 2, 'c']);
    expect(cardNumberIn({ n: 4111111111111111 })).toEqual(['n']);
    expect(cardNumberIn({ '5555555555554444': 'x' })).toEqual(['5555555555554444']);
    expect(cardNumberIn({ amount: 1_000, at: 1714566896789, phone: '+4541111111111111', iban: 'DE89 3704 0044 0532 0130 00' })).toBeNull();
  });
});

describe('maskCardNumbers', () => {
  it('keeps only the last four digits', () => {
    expect(maskCardNumbers('card 4111 1111 1111 1111 and 5555555555554444, order 123')).toBe(
      'card [card number ****1111] and [card number ****4444], order 123',
    );
  });
});
