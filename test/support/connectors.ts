// What the connector stack tests share: a merchant with a connector account, the BNPL customer profile a merchant
// fills for every provider (EUR, billing in DE, order lines with tax, spec 2.5 metadata, device fingerprints), and the
// calls each cell of the matrix makes. Each test file keeps only what is its provider's own.
import { expect } from 'vitest';
import type { ConnectorName } from '../../lib/schemas/common.ts';
import { MANIFESTS } from '../../workers/connectors/manifests.ts';
import { sleep, type Stack } from './stack.ts';

export interface ConnectorMerchant {
  merchant_id: string;
  api_key: string;
  mca: string;
}

/**
 * A new merchant with one account of `connector`: by default the credentials its imitation accepts (the manifest's
 * sandbox_account_details) and, where the provider notifies, the webhook secret the imitation signs with.
 */
export async function merchantWithAccount(
  stack: Stack,
  connector: ConnectorName,
  details: Record<string, unknown> | undefined = MANIFESTS[connector]?.sandbox_account_details,
  webhookSecret?: string,
): Promise<ConnectorMerchant> {
  const m = await stack.merchant();
  const a = await stack.api(
    'POST',
    `/account/${m.merchant_id}/connectors`,
    {
      connector_name: connector,
      connector_account_details: details,
      ...(webhookSecret ? { connector_webhook_details: { merchant_secret: webhookSecret } } : {}),
    },
    stack.adminKey,
  );
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return { ...m, mca: a.body.merchant_connector_id as string };
}

let n = 0;
/**
 * The BNPL customer profile: 119.00 EUR (100.00 net + 19.00 tax) in two order lines, billing in Berlin, spec 2.5
 * metadata and every provider's device fingerprint. `business` adds the company fields B2B providers need.
 */
export function bnplPayment(connector: ConnectorName, email: string, opts: { buyer?: 'consumer' | 'business' } = {}, extra: Record<string, unknown> = {}) {
  n += 1;
  const business = opts.buyer === 'business';
  return {
    amount: 11_900,
    currency: 'EUR',
    confirm: true,
    capture_method: 'manual',
    payment_method: 'pay_later',
    payment_method_type: 'invoice',
    // Date.now() in base 36: "<n>-<13 digits>" can pass the Luhn check and be refused as a card number (IR_05).
    connector: [connector],
    merchant_order_reference_id: `${connector}-order-${n}-${Date.now().toString(36)}`,
    return_url: 'https://shop.example/return',
    customer: { id: `cus_${connector}_${n}`, name: 'Erika Mustermann', email, phone: '+4915112345678' },
    billing: {
      address: { first_name: 'Erika', last_name: 'Mustermann', line1: 'Hauptstr. 12a', city: 'Berlin', zip: '10115', country: 'DE' },
      email,
      phone: { number: '15112345678', country_code: '+49' },
    },
    order_details: [
      { product_name: 'Lamp', quantity: 2, amount: 9_520, total_tax_amount: 1_520, tax_percentage: 19, product_id: 'sku-lamp', product_type: 'physical' },
      { product_name: 'Shipping', quantity: 1, amount: 2_380, total_tax_amount: 380, tax_percentage: 19, category: 'shipping_costs' },
    ],
    order_tax_amount: 1_900,
    metadata: {
      buyer_type: business ? 'business' : 'consumer',
      birth_date: '1980-02-03',
      gender: 'female',
      customer_locale: 'de-DE',
      net_term: 30,
      invoice_url: 'https://shop.example/invoices/default.pdf',
      ...(business
        ? {
            company_name: 'ACME GmbH',
            legal_form: 'GmbH',
            legal_form_category: 'kapital_und_personen_gesellschaft',
            company_vat_id: 'DE123456789',
            company_registration_number: 'HRB 12345',
          }
        : {}),
    },
    browser_info: {
      user_agent: 'Mozilla/5.0',
      ip_address: '203.0.113.7',
      language: 'de-DE',
      accept_header: 'text/html',
      device_fingerprint: { ratepay: 'rp-device-1', payla: 'pl-device-1', unzer: 'uz-device-1' },
    },
    ...extra,
  };
}

/** The merchant's calls of a matrix cell, with its key. */
export function merchantCalls(stack: Stack, apiKey: string) {
  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body, apiKey);
  return {
    /** Creates (and confirms) a payment; expects 200. */
    async pay(body: Record<string, unknown>) {
      const r = await api('POST', '/payments', body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body;
    },
    /** The payment once it has `status` (at once if it has already). */
    until: (p: { payment_id: string; status: string }, status: string, timeoutMs?: number) =>
      p.status === status ? Promise.resolve(p as any) : stack.poll(p.payment_id, apiKey, (x) => x.status === status, timeoutMs),
    capture: (paymentId: string, body: Record<string, unknown> = {}) => api('POST', `/payments/${paymentId}/capture`, body),
    cancel: (paymentId: string, body: Record<string, unknown> = {}) => api('POST', `/payments/${paymentId}/cancel`, body),
    refund: (paymentId: string, amount?: number, extra: Record<string, unknown> = {}) =>
      api('POST', '/refunds', { payment_id: paymentId, ...(amount ? { amount } : {}), ...extra }),
    /** The refund once it is no longer pending. */
    async refundSettled(refundId: string, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = await api('GET', `/refunds/${refundId}`);
        if (r.status === 200 && r.body.status !== 'pending') return r.body;
        if (Date.now() > deadline)
          throw new Error(
            `refund ${refundId} still pending: ${JSON.stringify(r.body)}\nthe stack's log about it:\n${stack.linesAbout([refundId, r.body?.payment_id])}`,
          );
        await sleep(200);
      }
    },
  };
}

/** A view of the provider's imitation (GET /__sandbox/<provider>/<view>?query): what the provider holds. */
export async function imitationView(stack: Stack, provider: ConnectorName, view: string, query: Record<string, string> = {}): Promise<any[]> {
  const r = await stack.sandbox(`/__sandbox/${provider}/${view}?${new URLSearchParams(query)}`);
  expect(r.status, `${provider}/${view}`).toBe(200);
  return r.json() as Promise<any[]>;
}

/**
 * Posts a form of an HTML page as a browser would (its hidden inputs, form-encoded), without following the redirect:
 * the first form whose action `pick` accepts.
 */
export async function submitForm(pageUrl: string, pick: (action: string) => boolean): Promise<Response> {
  const page = await (await fetch(pageUrl)).text();
  const forms = [...page.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map((f) => ({ action: f[1]!.replace(/&amp;/g, '&'), inner: f[2]! }));
  const form = forms.find((f) => pick(f.action));
  expect(form, page).toBeTruthy();
  const fields = [...form!.inner.matchAll(/<input[^>]*type="hidden"[^>]*>/g)].map((i) => [
    /name="([^"]*)"/.exec(i[0])?.[1] ?? '',
    (/value="([^"]*)"/.exec(i[0])?.[1] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"'),
  ]);
  return fetch(new URL(form!.action, pageUrl), {
    method: 'POST',
    redirect: 'manual',
    ...(fields.length ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() } : {}),
  });
}

/**
 * The customer at the provider's page (the payment's next_action.redirect_to_url, once it has one): opens it and posts
 * the form whose action ends in `/<action>`, as a browser would. The provider answers with a redirect (303).
 */
export async function customerStep(stack: Stack, paymentId: string, apiKey: string, action: string): Promise<{ url: string; location: string; payment: any }> {
  const payment = await stack.poll(paymentId, apiKey, (x) => x.status === 'requires_customer_action' && !!x.next_action?.redirect_to_url);
  const url = payment.next_action.redirect_to_url as string;
  const res = await submitForm(url, (a) => a.endsWith(`/${action}`));
  expect(res.status).toBe(303);
  return { url, location: res.headers.get('location')!, payment };
}
