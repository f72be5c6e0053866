// Shared value types of spec section 2.1.
import { z } from 'zod';

export const CURRENCIES = [
  'AED', 'AFN', 'ALL', 'AMD', 'ANG', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BHD', 'BIF', 'BMD', 'BND', 'BOB', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHF', 'CLP', 'CNY', 'COP', 'CRC', 'CUP', 'CVE', 'CZK', 'DJF', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD', 'GNF', 'GTQ', 'GYD', 'HKD', 'HNL', 'HRK', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IQD', 'IRR', 'ISK', 'JMD', 'JOD', 'JPY', 'KES', 'KGS', 'KHR', 'KMF', 'KPW', 'KRW', 'KWD', 'KYD', 'KZT', 'LAK', 'LBP', 'LKR', 'LRD', 'LSL', 'LYD', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK', 'MXN', 'MYR', 'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'OMR', 'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'PYG', 'QAR', 'RON', 'RSD', 'RUB', 'RWF', 'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SLL', 'SOS', 'SRD', 'SSP', 'STN', 'SVC', 'SYP', 'SZL', 'THB', 'TJS', 'TMT', 'TND', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'UGX', 'USD', 'UYU', 'UZS', 'VES', 'VND', 'VUV', 'WST', 'XAF', 'XCD', 'XOF', 'XPF', 'YER', 'ZAR', 'ZMW', 'ZWL',
] as const;

export const CONNECTORS = [
  'axytos', 'billie', 'twisto', 'avarda', 'payla', 'ratepay', 'riverty', 'svea', 'unzer', 'zaver', 'openbank', 'mondu', 'service_test',
] as const;

export const PAYMENT_STATUSES = [
  'succeeded', 'failed', 'cancelled', 'processing', 'requires_customer_action', 'requires_merchant_action',
  'requires_payment_method', 'requires_confirmation', 'requires_capture', 'partially_captured',
  'partially_captured_and_capturable',
] as const;

export const CAPTURE_METHODS = ['automatic', 'manual', 'manual_multiple', 'scheduled', 'sequential_automatic'] as const;
export const PAYMENT_METHOD_TYPES = [
  'direct_debit', 'installment_invoice', 'installment_direct_debit', 'invoice', 'subscription_invoice', 'subscription_direct_debit',
] as const;
export const PAYMENT_EXPERIENCES = [
  'redirect_to_url', 'invoke_sdk_client', 'display_qr_code', 'one_click', 'link_wallet', 'invoke_payment_app', 'display_wait_screen', 'collect_otp',
] as const;

export const Amount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
export const Currency = z.enum(CURRENCIES);
export const Country = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter uppercase ISO 3166-1 alpha-2 code');
export const Connector = z.enum(CONNECTORS);
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export const CaptureMethod = z.enum(CAPTURE_METHODS);
export const PaymentMethodType = z.enum(PAYMENT_METHOD_TYPES);
export const PaymentExperience = z.enum(PAYMENT_EXPERIENCES);
export const Timestamp = z.iso.datetime({ offset: true });

/** Generic metadata (spec 2.1): up to 50 keys, key names up to 40 characters, values up to 500 characters. */
export const Metadata = z.record(z.string().max(40, 'metadata key names are at most 40 characters'), z.unknown())
  .superRefine((obj, ctx) => {
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
