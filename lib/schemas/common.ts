// Shared value types of spec section 2.1.
import { z } from 'zod';
import { CARD_NUMBER_MESSAGE, cardNumberIn, findCardNumber } from './card-number.ts';

export const CURRENCIES = [
  'AED',
  'AFN',
  'ALL',
  'AMD',
  'ANG',
  'AOA',
  'ARS',
  'AUD',
  'AWG',
  'AZN',
  'BAM',
  'BBD',
  'BDT',
  'BGN',
  'BHD',
  'BIF',
  'BMD',
  'BND',
  'BOB',
  'BRL',
  'BSD',
  'BTN',
  'BWP',
  'BYN',
  'BZD',
  'CAD',
  'CDF',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CRC',
  'CUP',
  'CVE',
  'CZK',
  'DJF',
  'DKK',
  'DOP',
  'DZD',
  'EGP',
  'ERN',
  'ETB',
  'EUR',
  'FJD',
  'FKP',
  'GBP',
  'GEL',
  'GHS',
  'GIP',
  'GMD',
  'GNF',
  'GTQ',
  'GYD',
  'HKD',
  'HNL',
  'HRK',
  'HTG',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'IQD',
  'IRR',
  'ISK',
  'JMD',
  'JOD',
  'JPY',
  'KES',
  'KGS',
  'KHR',
  'KMF',
  'KPW',
  'KRW',
  'KWD',
  'KYD',
  'KZT',
  'LAK',
  'LBP',
  'LKR',
  'LRD',
  'LSL',
  'LYD',
  'MAD',
  'MDL',
  'MGA',
  'MKD',
  'MMK',
  'MNT',
  'MOP',
  'MRU',
  'MUR',
  'MVR',
  'MWK',
  'MXN',
  'MYR',
  'MZN',
  'NAD',
  'NGN',
  'NIO',
  'NOK',
  'NPR',
  'NZD',
  'OMR',
  'PAB',
  'PEN',
  'PGK',
  'PHP',
  'PKR',
  'PLN',
  'PYG',
  'QAR',
  'RON',
  'RSD',
  'RUB',
  'RWF',
  'SAR',
  'SBD',
  'SCR',
  'SDG',
  'SEK',
  'SGD',
  'SHP',
  'SLE',
  'SLL',
  'SOS',
  'SRD',
  'SSP',
  'STN',
  'SVC',
  'SYP',
  'SZL',
  'THB',
  'TJS',
  'TMT',
  'TND',
  'TOP',
  'TRY',
  'TTD',
  'TWD',
  'TZS',
  'UAH',
  'UGX',
  'USD',
  'UYU',
  'UZS',
  'VES',
  'VND',
  'VUV',
  'WST',
  'XAF',
  'XCD',
  'XOF',
  'XPF',
  'YER',
  'ZAR',
  'ZMW',
  'ZWL',
] as const;

export const CONNECTORS = [
  'axytos',
  'billie',
  'twisto',
  'avarda',
  'payla',
  'ratepay',
  'riverty',
  'svea',
  'unzer',
  'zaver',
  'openbank',
  'mondu',
  'service_test',
] as const;

export const PAYMENT_STATUSES = [
  'succeeded',
  'failed',
  'cancelled',
  'processing',
  'requires_customer_action',
  'requires_merchant_action',
  'requires_payment_method',
  'requires_confirmation',
  'requires_capture',
  'partially_captured',
  'partially_captured_and_capturable',
] as const;

export const CAPTURE_METHODS = ['automatic', 'manual', 'manual_multiple', 'scheduled', 'sequential_automatic'] as const;
export const PAYMENT_METHOD_TYPES = [
  'direct_debit',
  'installment_invoice',
  'installment_direct_debit',
  'invoice',
  'subscription_invoice',
  'subscription_direct_debit',
] as const;
export const PAYMENT_EXPERIENCES = [
  'redirect_to_url',
  'invoke_sdk_client',
  'display_qr_code',
  'one_click',
  'link_wallet',
  'invoke_payment_app',
  'display_wait_screen',
  'collect_otp',
] as const;

/** ISO 3166-1 alpha-2, the officially assigned codes (spec 2.1: AF ... ZW). */
export const COUNTRIES = [
  'AD',
  'AE',
  'AF',
  'AG',
  'AI',
  'AL',
  'AM',
  'AO',
  'AQ',
  'AR',
  'AS',
  'AT',
  'AU',
  'AW',
  'AX',
  'AZ',
  'BA',
  'BB',
  'BD',
  'BE',
  'BF',
  'BG',
  'BH',
  'BI',
  'BJ',
  'BL',
  'BM',
  'BN',
  'BO',
  'BQ',
  'BR',
  'BS',
  'BT',
  'BV',
  'BW',
  'BY',
  'BZ',
  'CA',
  'CC',
  'CD',
  'CF',
  'CG',
  'CH',
  'CI',
  'CK',
  'CL',
  'CM',
  'CN',
  'CO',
  'CR',
  'CU',
  'CV',
  'CW',
  'CX',
  'CY',
  'CZ',
  'DE',
  'DJ',
  'DK',
  'DM',
  'DO',
  'DZ',
  'EC',
  'EE',
  'EG',
  'EH',
  'ER',
  'ES',
  'ET',
  'FI',
  'FJ',
  'FK',
  'FM',
  'FO',
  'FR',
  'GA',
  'GB',
  'GD',
  'GE',
  'GF',
  'GG',
  'GH',
  'GI',
  'GL',
  'GM',
  'GN',
  'GP',
  'GQ',
  'GR',
  'GS',
  'GT',
  'GU',
  'GW',
  'GY',
  'HK',
  'HM',
  'HN',
  'HR',
  'HT',
  'HU',
  'ID',
  'IE',
  'IL',
  'IM',
  'IN',
  'IO',
  'IQ',
  'IR',
  'IS',
  'IT',
  'JE',
  'JM',
  'JO',
  'JP',
  'KE',
  'KG',
  'KH',
  'KI',
  'KM',
  'KN',
  'KP',
  'KR',
  'KW',
  'KY',
  'KZ',
  'LA',
  'LB',
  'LC',
  'LI',
  'LK',
  'LR',
  'LS',
  'LT',
  'LU',
  'LV',
  'LY',
  'MA',
  'MC',
  'MD',
  'ME',
  'MF',
  'MG',
  'MH',
  'MK',
  'ML',
  'MM',
  'MN',
  'MO',
  'MP',
  'MQ',
  'MR',
  'MS',
  'MT',
  'MU',
  'MV',
  'MW',
  'MX',
  'MY',
  'MZ',
  'NA',
  'NC',
  'NE',
  'NF',
  'NG',
  'NI',
  'NL',
  'NO',
  'NP',
  'NR',
  'NU',
  'NZ',
  'OM',
  'PA',
  'PE',
  'PF',
  'PG',
  'PH',
  'PK',
  'PL',
  'PM',
  'PN',
  'PR',
  'PS',
  'PT',
  'PW',
  'PY',
  'QA',
  'RE',
  'RO',
  'RS',
  'RU',
  'RW',
  'SA',
  'SB',
  'SC',
  'SD',
  'SE',
  'SG',
  'SH',
  'SI',
  'SJ',
  'SK',
  'SL',
  'SM',
  'SN',
  'SO',
  'SR',
  'SS',
  'ST',
  'SV',
  'SX',
  'SY',
  'SZ',
  'TC',
  'TD',
  'TF',
  'TG',
  'TH',
  'TJ',
  'TK',
  'TL',
  'TM',
  'TN',
  'TO',
  'TR',
  'TT',
  'TV',
  'TW',
  'TZ',
  'UA',
  'UG',
  'UM',
  'US',
  'UY',
  'UZ',
  'VA',
  'VC',
  'VE',
  'VG',
  'VI',
  'VN',
  'VU',
  'WF',
  'WS',
  'YE',
  'YT',
  'ZA',
  'ZM',
  'ZW',
] as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse NUL
const NO_NUL = /^[^\u0000]*$/;
/** Every request string: the database cannot store NUL, so it is refused here, naming the field. */
export const str = (max?: number) => (max ? z.string().max(max) : z.string()).regex(NO_NUL, 'must not contain NUL characters');

/**
 * Free-form text a merchant or customer writes (descriptions, names, address lines, references…): a request string
 * that holds no card number (lib/schemas/card-number.ts).
 */
export const text = (max?: number) => str(max).refine((s) => !findCardNumber(s), CARD_NUMBER_MESSAGE);

/**
 * Why a free-form JSON value (metadata and other objects kept as given) cannot be stored, or null: NUL in a string or
 * key, and (with `keyRules`) keys MongoDB refuses: $-prefixed or containing a dot.
 */
export function unstorable(value: unknown, keyRules = true, path: PropertyKey[] = []): { path: PropertyKey[]; message: string } | null {
  if (typeof value === 'string') return NO_NUL.test(value) ? null : { path, message: 'must not contain NUL characters' };
  if (value === null || typeof value !== 'object') return null;
  const array = Array.isArray(value);
  for (const [k, v] of Object.entries(value)) {
    const bad = array ? null : keyProblem(k, keyRules);
    if (bad) return { path: [...path, k], message: bad };
    const inner = unstorable(v, keyRules, [...path, array ? Number(k) : k]);
    if (inner) return inner;
  }
  return null;
}

function keyProblem(k: string, keyRules = true): string | null {
  if (!NO_NUL.test(k)) return 'key names must not contain NUL characters';
  if (keyRules && k.startsWith('$')) return 'key names must not start with $';
  if (keyRules && k.includes('.')) return 'key names must not contain a dot';
  return null;
}

/** A key of a free-form object. */
export const Key = (max = 255, message?: string) =>
  z
    .string()
    .max(max, message)
    .superRefine((k, ctx) => {
      const bad = keyProblem(k) ?? (findCardNumber(k) ? CARD_NUMBER_MESSAGE : null);
      if (bad) ctx.addIssue({ code: 'custom', message: bad });
    });

/** `schema`, refusing what the database cannot store (for objects that keep keys they do not declare). */
export const storable = <T extends z.ZodType>(schema: T) =>
  schema.superRefine((v, ctx) => {
    const bad = unstorable(v);
    if (bad) ctx.addIssue({ code: 'custom', path: bad.path, message: bad.message });
    // Free-form values are kept as given: a card number at any depth would be stored and answered.
    const card = bad ? null : cardNumberIn(v);
    if (card) ctx.addIssue({ code: 'custom', path: card, message: CARD_NUMBER_MESSAGE });
  });

/** A free-form JSON value that the database can store. */
export const Json = storable(z.unknown());

/** A free-form object kept as given. */
export const FreeObject = z.record(Key(), Json);

/** payment_id: merchant-chosen or generated (pay_ + 26), exactly 30 characters (spec 8). */
export const PaymentId = str().length(30, 'payment_id must be exactly 30 characters');
/**
 * A payment id a request names to find a payment (a refund's payment_id, a list filter): any string; one of a shape
 * no payment has is simply not found (404 naming payment_id), not a 400 about its length.
 */
export const PaymentRef = str(255).min(1);
/** customer_id: 1 to 64 characters (spec 8). */
export const CustomerId = str(64).min(1);

export const Amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/**
 * An enum of codes written in upper case: a lower-case spelling of a code that exists is told so ("codes are upper
 * case: EUR"), anything else gets one line with examples; never the whole list.
 */
function upperCaseCodes<T extends readonly [string, ...string[]]>(codes: T, what: string, examples: string) {
  const known = new Set<string>(codes);
  return z.enum(codes, {
    error: (iss) => {
      const input = iss.input;
      if (typeof input === 'string' && input !== input.toUpperCase() && known.has(input.toUpperCase())) {
        return `${what} codes are upper case: ${input.toUpperCase()}, not ${input}`;
      }
      return `must be ${what === 'currency' ? 'an ISO 4217 currency code' : 'an ISO 3166-1 alpha-2 country code'} that exists, in upper case (e.g. ${examples})`;
    },
  });
}
export const Currency = upperCaseCodes(CURRENCIES, 'currency', 'EUR, USD, SEK');
export const Country = upperCaseCodes(COUNTRIES, 'country', 'DE, US');
export const Connector = z.enum(CONNECTORS);
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export const CaptureMethod = z.enum(CAPTURE_METHODS);
export const PaymentMethodType = z.enum(PAYMENT_METHOD_TYPES);
export const PaymentExperience = z.enum(PAYMENT_EXPERIENCES);
export const Timestamp = z.iso.datetime({ offset: true });

const HTTP_URL_MESSAGE = 'must be an http or https URL';
/**
 * Every URL we accept (return_url, webhook_url…): http(s) only. A browser sent to a javascript:, data: or vbscript:
 * URL would run script on our checkout origin.
 */
export const httpUrl = (max = 2048) =>
  z
    .url({ protocol: /^https?$/, error: HTTP_URL_MESSAGE })
    .max(max)
    .regex(NO_NUL, 'must not contain NUL characters');
/** Every email we accept. */
export const Email = z.email().max(255).regex(NO_NUL, 'must not contain NUL characters');
/** Checked again before any redirect: a URL stored before this rule, or answered by a provider, may be anything. */
export const isHttpUrl = (s: unknown): s is string => httpUrl().safeParse(s).success;

/** Generic metadata (spec 2.1): up to 50 keys, key names up to 40 characters, values up to 500 characters. */
export const Metadata = z.record(Key(40, 'metadata key names are at most 40 characters'), Json).superRefine((obj, ctx) => {
  const keys = Object.keys(obj);
  if (keys.length > 50) ctx.addIssue({ code: 'custom', message: 'metadata has at most 50 keys' });
  for (const k of keys) {
    const v = obj[k];
    const len = typeof v === 'string' ? v.length : JSON.stringify(v ?? null).length;
    if (len > 500) ctx.addIssue({ code: 'custom', path: [k], message: 'metadata values are at most 500 characters' });
  }
});

export type ConnectorName = z.infer<typeof Connector>;
export type PaymentStatusName = z.infer<typeof PaymentStatus>;
export type CaptureMethodName = z.infer<typeof CaptureMethod>;
