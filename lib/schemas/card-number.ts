// Card numbers (PANs) in text: we never take card data (BNPL needs none), so a free-form value holding one is refused
// before it is stored, and logs mask one wherever it appears. The rule (docs/decisions.md, item 10 of issue 19):
// a run of 13 to 19 digits, written together or in the groups cards are printed in (a first group of 4, then groups
// of 3 to 6: 4-4-4-4, 4-6-5, 4-6-4, 4-4-4-4-3), split by one space or dash, standing on its own (no
// letter, digit or "+" right before it, no letter or digit right after it, and not continuing an earlier group
// of digits), that starts as a card number can (3-6, or 2221-2720) and passes the Luhn check.

/**
 * A run of digit groups standing on its own. "+" before it makes it a phone number; a digit and a separator before it
 * make it the tail of a longer grouped number (an IBAN: DE89 3704 0044 0532 0130 00).
 */
const RUN = /(?<![A-Za-z0-9+])(?<![0-9][ -])\d+(?:[ -]\d+)*(?![A-Za-z0-9])/g;
/** Issuer ranges: Amex/Diners/JCB (3), Visa (4), Mastercard/Maestro (5, 2221-2720), Discover/UnionPay/Maestro (6). */
const ISSUER = /^(?:[3-6]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/;

/** The Luhn (mod 10) check of a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Groups as cards print them: the first of 4 digits, the others of 3 to 6. A merchant's reference such as
 * "3-1764078123456" or "2024-12345678901234" is not written like a card, so it is not read as one. */
const CARD_GROUPS = /^\d{4}(?:[ -]\d{3,6})+$/;
const written = (run: string) => /^\d+$/.test(run) || CARD_GROUPS.test(run);

const isCardNumber = (digits: string) => digits.length >= 13 && digits.length <= 19 && ISSUER.test(digits) && luhnValid(digits);

/** The first card number written in `text` (as written, separators kept), or null. */
export function findCardNumber(text: string): string | null {
  for (const m of text.matchAll(RUN)) {
    if (written(m[0]) && isCardNumber(m[0].replace(/[ -]/g, ''))) return m[0];
  }
  return null;
}

/** `text` with every card number replaced by a mask that keeps its last four digits. */
export function maskCardNumbers(text: string): string {
  return text.replace(RUN, (run) => {
    const digits = run.replace(/[ -]/g, '');
    return written(run) && isCardNumber(digits) ? `[card number ****${digits.slice(-4)}]` : run;
  });
}

/**
 * Where a card number sits in a JSON value (strings, integers and object keys, at any depth), or null. Integers
 * count: 4111111111111111 is a safe integer, and metadata keeps numbers as given.
 */
export function cardNumberIn(value: unknown, path: PropertyKey[] = []): PropertyKey[] | null {
  if (typeof value === 'string') return findCardNumber(value) ? path : null;
  if (typeof value === 'number') return Number.isInteger(value) && findCardNumber(String(value)) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  const array = Array.isArray(value);
  for (const [k, v] of Object.entries(value)) {
    if (!array && findCardNumber(k)) return [...path, k];
    const inner = cardNumberIn(v, [...path, array ? Number(k) : k]);
    if (inner) return inner;
  }
  return null;
}

export const CARD_NUMBER_MESSAGE = 'looks like a card number: card numbers are not accepted (no card data is needed for pay_later)';
