// Our operations in Unzer's dialect (Payment API v1, paylater-invoice). Amounts are decimal strings in major units,
// converted exactly (lib/money.ts). An authorization is a chain of calls (Flow.next): the payment type, the customer,
// the basket (v2), the authorization, and for automatic capture the charge.
import type { ConnectorJob, ProviderOrder } from '../../../domain/job.ts';
import { majorString } from '../kit/money.ts';
import type { ProviderRequest } from '../kit/http.ts';
import { defined, int, obj, text as str, type Obj } from '../kit/order.ts';

export const decimal = majorString;

/** HTTP Basic: the private key as the user, an empty password. Plus the shopper's IP and language when known. */
export function headers(apiKey: string, job?: ConnectorJob): Record<string, string> {
  const h: Record<string, string> = { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` };
  const ip = str(obj(job?.order?.browser_info).ip_address);
  if (ip) h.clientip = ip;
  const lang = language(job?.order);
  if (lang) h['accept-language'] = lang;
  return h;
}

const language = (o: ProviderOrder | undefined | null) =>
  str(o?.metadata?.customer_locale ?? o?.locale)
    ?.slice(0, 2)
    .toLowerCase();
export const isBusiness = (o: ProviderOrder | undefined | null) => o?.metadata?.buyer_type === 'business';
export const isAutomatic = (job: ConnectorJob) => !['manual', 'manual_multiple'].includes(job.capture_method);
/**
 * The orderId Unzer knows the payment by: our payment id, unique per payment. Unzer refuses an orderId it has
 * (API.320.200.138) and the connector then reads the payment of that orderId as its own (authorizeOutcome): with the
 * merchant's order reference, a second payment for the same order would take over the first (issue 21).
 */
export const orderId = (job: ConnectorJob) => job.payment_id;

// --- the authorization chain --------------------------------------------------------------------------------------

export const typeRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: '/v1/types/paylater-invoice',
  headers: headers(apiKey, job),
  body: {},
});

function address(a: Obj, extra: Obj = {}) {
  const ad = obj(a.address);
  const name = [str(ad.first_name), str(ad.last_name)].filter(Boolean).join(' ') || undefined;
  const street = [str(ad.line1), str(ad.line2), str(ad.line3)].filter(Boolean).join(' ') || undefined;
  return defined({ name, street, state: str(ad.state), zip: str(ad.zip), city: str(ad.city), country: str(ad.country), ...extra });
}

/**
 * Unzer's companyType enum: authority, association, sole, company, other (php-sdk src/Constants/CompanyTypes.php;
 * java-sdk CompanyInfo.CompanyType). Issue 21: our legal_form ("GmbH", "e.K.") was sent as it came. A legal form we
 * cannot place is `other`.
 */
const COMPANY_TYPE: Record<string, 'authority' | 'association' | 'sole' | 'company'> = {
  authority: 'authority',
  public_authority: 'authority',
  government: 'authority',
  behoerde: 'authority',
  association: 'association',
  verein: 'association',
  ev: 'association',
  sole: 'sole',
  sole_proprietor: 'sole',
  sole_trader: 'sole',
  sole_proprietorship: 'sole',
  freelancer: 'sole',
  einzelunternehmen: 'sole',
  ek: 'sole',
  company: 'company',
  gmbh: 'company',
  ug: 'company',
  ag: 'company',
  kg: 'company',
  ohg: 'company',
  gbr: 'company',
  se: 'company',
  kgaa: 'company',
  gmbh_co_kg: 'company',
  ltd: 'company',
  llc: 'company',
  inc: 'company',
  bv: 'company',
  nv: 'company',
  sa: 'company',
  sarl: 'company',
};
export function companyType(legalForm: string | undefined): 'authority' | 'association' | 'sole' | 'company' | 'other' | undefined {
  if (!legalForm) return undefined;
  const key = legalForm
    .toLowerCase()
    .replace(/ö/g, 'oe')
    .replace(/&/g, ' ')
    .replace(/[.()]/g, '')
    .trim()
    .replace(/[\s-]+/g, '_');
  return COMPANY_TYPE[key] ?? 'other';
}

const SALUTATION: Record<string, string> = { m: 'mr', male: 'mr', mr: 'mr', f: 'mrs', female: 'mrs', mrs: 'mrs', ms: 'mrs' };

/** POST /v1/customers: B2C with its birth date, B2B with the company (Unzer infers which from company/companyInfo). */
export function customerRequest(job: ConnectorJob, apiKey: string): ProviderRequest {
  const o = job.order;
  const md = o?.metadata ?? {};
  const billing = obj(o?.billing);
  const shipping = obj(o?.shipping);
  const bAddr = obj(billing.address);
  const [first, ...rest] = (o?.customer?.name ?? '').trim().split(/\s+/);
  const firstname = str(bAddr.first_name) ?? (first || undefined);
  const lastname = str(bAddr.last_name) ?? (rest.join(' ') || undefined);
  const phone = obj(billing.phone);
  const phoneNumber = str(phone.number)
    ? `${str(phone.country_code) ?? ''}${str(phone.number)}`
    : o?.customer?.phone
      ? `${o.customer.phone_country_code ?? ''}${o.customer.phone}`
      : undefined;
  const birthDate = str(md.birth_date) ?? o?.birth_date ?? undefined;
  const hasShipping = Object.keys(obj(shipping.address)).length > 0;
  const business = isBusiness(o);
  return {
    method: 'POST',
    path: '/v1/customers',
    headers: headers(apiKey, job),
    body: defined({
      firstname,
      lastname,
      salutation: SALUTATION[(str(md.gender) ?? o?.gender ?? '').toLowerCase()] ?? 'unknown',
      birthDate,
      email: job.customer_email ?? o?.customer?.email ?? str(billing.email),
      phone: phoneNumber,
      language: language(o),
      company: business ? str(md.company_name) : undefined,
      // UNVERIFIED which companyInfo fields Unzer's risk check needs: we have no register number, so not_registered
      // with the buyer as the owner.
      companyInfo: business
        ? defined({
            registrationType: 'not_registered',
            function: 'OWNER',
            commercialSector: 'OTHER',
            companyType: companyType(str(md.legal_form)),
            owner: defined({ firstname, lastname, birthdate: birthDate }),
          })
        : undefined,
      billingAddress: address(billing),
      shippingAddress: hasShipping ? address(shipping, { shippingType: 'different-address' }) : address(billing, { shippingType: 'equals-billing' }),
    }),
  };
}

const ITEM_TYPE: Record<string, string> = { shipping_costs: 'shipment', voucher: 'voucher', digital: 'digital' };

/** Unzer's basket items from our order lines; a line's amount is its total, split per unit only where exact. */
export function basketItems(job: ConnectorJob): Obj[] {
  const lines = job.order?.order_details ?? [];
  if (lines.length === 0) {
    return [
      {
        basketItemReferenceId: 'item-1',
        title: job.order?.description ?? 'Order',
        quantity: 1,
        vat: 0,
        amountPerUnitGross: decimal(job.amount, job.currency),
        type: 'goods',
      },
    ];
  }
  return lines.map((l, i) => {
    const amount = Number(l.amount);
    const given = int(l.quantity);
    const qty = given !== undefined && given > 0 ? given : 1;
    const exact = amount % qty === 0;
    const name = str(l.product_name) ?? `Item ${i + 1}`;
    const [quantity, perUnit, title] = exact ? [qty, amount / qty, name] : [1, amount, `${qty} x ${name}`];
    const type = ITEM_TYPE[str(l.category) ?? ''] ?? 'goods';
    const taxAmount = typeof l.tax_amount === 'number' ? l.tax_amount : typeof l.total_tax_amount === 'number' ? l.total_tax_amount : undefined;
    const vat =
      typeof l.tax_percentage === 'number'
        ? l.tax_percentage
        : taxAmount !== undefined && amount - taxAmount > 0
          ? Math.round((taxAmount / (amount - taxAmount)) * 100)
          : 0;
    // A voucher is a discount: Unzer takes it as a positive amountDiscountPerUnitGross.
    const money =
      type === 'voucher' || perUnit < 0
        ? { amountPerUnitGross: decimal(0, job.currency), amountDiscountPerUnitGross: decimal(Math.abs(perUnit), job.currency) }
        : { amountPerUnitGross: decimal(perUnit, job.currency) };
    return defined({ basketItemReferenceId: str(l.product_id) ?? `item-${i + 1}`, title, quantity, vat, ...money, type, unit: 'pc' });
  });
}

export const basketRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: '/v2/baskets',
  headers: headers(apiKey, job),
  body: { totalValueGross: decimal(job.amount, job.currency), currencyCode: job.currency, orderId: orderId(job), basketItems: basketItems(job) },
});

/** POST /v1/payments/authorize with the three resources and the risk data (threatMetrixId: the device fingerprint). */
export function authorizeRequest(job: ConnectorJob, apiKey: string, ids: { typeId: string; customerId: string; basketId: string }): ProviderRequest {
  const o = job.order;
  const fp = obj(obj(o?.browser_info).device_fingerprint);
  return {
    method: 'POST',
    path: '/v1/payments/authorize',
    headers: headers(apiKey, job),
    body: defined({
      amount: decimal(job.amount, job.currency),
      currency: job.currency,
      orderId: orderId(job),
      returnUrl: job.return_url ?? undefined,
      // The merchant's order reference where there is no description (orderId is our payment id).
      paymentReference: str(o?.description) ?? job.merchant_order_reference_id ?? undefined,
      resources: ids,
      additionalTransactionData: {
        riskData: defined({
          threatMetrixId: str(fp.unzer) ?? str(o?.metadata?.device_token),
          // UNVERIFIED value sets: a guest (0) or a registered customer (1), of a neutral group.
          customerGroup: 'NEUTRAL',
          registrationLevel: o?.customer?.id ? '1' : '0',
        }),
      },
    }),
  };
}

// --- captures, cancels ----------------------------------------------------------------------------------------------

/** The invoice number a charge prints: the capture's merchant_invoice_ref, else the operation id (unique per charge). */
export function invoiceId(job: ConnectorJob): string {
  const inv = obj(obj(job.capture_details?.capture_metadata).invoice_data);
  return str(inv.merchant_invoice_ref) ?? str(job.capture_details?.metadata?.invoice_number) ?? job.operation_id;
}

export const chargeRequest = (job: ConnectorJob, apiKey: string, paymentId: string): ProviderRequest => ({
  method: 'POST',
  path: `/v1/payments/${paymentId}/charges`,
  headers: headers(apiKey, job),
  body: { amount: decimal(job.amount, job.currency), invoiceId: invoiceId(job), orderId: orderId(job) },
});

/** The payment read: GET /v1/payments/{id}. The id may be our orderId (the PHP SDK's fetchPaymentByOrderId: a
 * payment's external id is its orderId), as after an authorization answered API.320.200.138 (authorizeOutcome). */
export const paymentRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'GET',
  path: `/v1/payments/${encodeURIComponent(job.connector_transaction_id ?? '')}`,
  headers: headers(apiKey, job),
});

/** A void: the authorization cancelled (no amount: what is left of it). */
export const voidRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `/v1/payments/${job.connector_transaction_id}/authorize/cancels`,
  headers: headers(apiKey, job),
  body: {},
});

function reasonCode(reason: string | undefined): 'CANCEL' | 'RETURN' | 'CREDIT' {
  if (reason && /return|retour/i.test(reason)) return 'RETURN';
  if (reason && /credit|goodwill|kulanz/i.test(reason)) return 'CREDIT';
  return 'CANCEL';
}

/** A refund: the charges cancelled on the payment (paylater types cancel at payment level), our refund id as the reference. */
export const refundRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'POST',
  path: `/v1/payments/${job.connector_transaction_id}/charges/cancels`,
  headers: headers(apiKey, job),
  body: defined({ amount: decimal(job.amount, job.currency), reasonCode: reasonCode(job.reason), paymentReference: job.refund_id ?? job.operation_id }),
});

export const refundSyncRequest = (job: ConnectorJob, apiKey: string): ProviderRequest => ({
  method: 'GET',
  path: `/v1/payments/${job.connector_transaction_id}/charges/cancels/${job.connector_refund_id}`,
  headers: headers(apiKey, job),
});
