// Payment links (spec 2.14, 4.7; ARCHITECTURE.md): created with payment_link: true, read by the merchant, and the
// checkout pages they point at, through the real processes.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let merchantId: string;
beforeAll(async () => ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant()));
afterAll(async () => stack?.stop());

const create = (body: Record<string, unknown> = {}) =>
  stack.api('POST', '/payments', { amount: 12_345, currency: 'EUR', payment_link: true, description: 'Chair <oak> & table', ...body }, key);
/** A GET with a JSON body, as the spec describes for 4.7 (fetch cannot send one). */
function getWithBody(path: string, body: unknown, apiKey: string): Promise<{ status: number; body: any }> {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${stack.gatewayUrl}${path}`, { method: 'GET', headers: { 'api-key': apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(data);
  });
}
const page = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

describe('payment links', () => {
  it('payment_link: true makes a link; GET /payment_link/{id} answers the link resource', async () => {
    const { body: p } = await create({ return_url: 'https://shop.example/done' });
    expect(p.payment_link).toEqual({
      payment_link_id: expect.stringMatching(/^plink_[A-Za-z0-9]{20}$/),
      link: `${stack.gatewayUrl.replace('127.0.0.1', 'localhost')}/payment_link/${merchantId}/${p.payment_id}`,
      secure_link: `${stack.gatewayUrl.replace('127.0.0.1', 'localhost')}/payment_link/s/${merchantId}/${p.payment_id}`,
    });
    const r = await stack.api('GET', `/payment_link/${p.payment_link.payment_link_id}`, undefined, key);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      payment_link_id: p.payment_link.payment_link_id, merchant_id: merchantId, link_to_pay: p.payment_link.link,
      amount: 12_345, created_at: p.created, status: 'active', expiry: p.expires_on, description: 'Chair <oak> & table',
      currency: 'EUR', secure_link: p.payment_link.secure_link,
    });
  });

  it('without payment_link the payment has none; the link is the merchant\'s only; bad requests are refused', async () => {
    const { body: plain } = await stack.api('POST', '/payments', { amount: 100, currency: 'EUR' }, key);
    expect(plain.payment_link).toBeNull();
    expect((await page(`${stack.gatewayUrl}/payment_link/${merchantId}/${plain.payment_id}`)).status).toBe(404);
    const { body: p } = await create();
    const id = p.payment_link.payment_link_id;
    const other = await stack.merchant();
    expect((await stack.api('GET', `/payment_link/${id}`, undefined, other.api_key)).status).toBe(404);
    expect((await stack.api('GET', `/payment_link/${id}`)).status).toBe(401);
    expect((await stack.api('GET', '/payment_link/plink_unknown', undefined, key)).status).toBe(404);
    const withSecret = await getWithBody(`/payment_link/${id}`, { client_secret: p.client_secret }, key);
    expect(withSecret.status).toBe(400);
    expect(withSecret.body.error.param).toBe('client_secret');
    expect((await getWithBody(`/payment_link/${id}`, {}, key)).status).toBe(200);
    const unknownField = await getWithBody(`/payment_link/${id}`, { colour: 'red' }, key);
    expect(unknownField.body.error).toMatchObject({ code: 'IR_07', param: 'colour' });
  });

  it('the open link shows the amount exactly and the description escaped; the customer pays there', async () => {
    const { body: p } = await create();
    const html = await (await page(p.payment_link.link)).text();
    expect(html).toContain('123.45 EUR');
    expect(html).toContain('Chair &#60;oak&#62; &#38; table');
    expect(html).not.toContain('<oak>');
    const paid = await fetch(`${p.payment_link.link}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ payment_id: p.payment_id, status: 'succeeded' });
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body).toMatchObject({ status: 'succeeded', payment_method: 'pay_later', amount_received: 12_345 });
    expect(await (await page(p.payment_link.link)).text()).toContain('This payment is succeeded.');
    const again = await fetch(`${p.payment_link.link}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await again.json()).error.code).toBe('IR_16');
  });

  it('a three_ds payment: the checkout page runs the 3DS authentication from the browser, then the provider authorizes', async () => {
    const post = async (url: string, body: unknown) => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    const browser = { user_agent: 'Mozilla/5.0', language: 'en', color_depth: 24, screen_height: 800, screen_width: 1200, time_zone: 0, java_enabled: false, java_script_enabled: true };
    const { body: p } = await create({ authentication_type: 'three_ds', capture_method: 'manual', return_url: 'https://shop.example/back' });
    expect(await (await page(p.payment_link.link)).text()).toContain('/3ds/authentication');
    expect(await post(`${p.payment_link.link}/confirm`, {})).toEqual({ payment_id: p.payment_id, status: 'requires_customer_action', three_ds_invoke: true, redirect_to_url: null });
    const bad = await post(`${p.payment_link.link}/3ds/authentication`, { device_channel: 'BRW', threeds_method_comp_ind: 'U', client_secret: p.client_secret });
    expect(bad.error).toMatchObject({ code: 'IR_07', param: 'client_secret' });
    const a = await post(`${p.payment_link.link}/3ds/authentication`, { device_channel: 'BRW', threeds_method_comp_ind: 'U', browser_info: browser });
    expect(a).toMatchObject({ payment_id: p.payment_id, trans_status: 'Y', three_ds_invoke: false, redirect_to_url: 'https://shop.example/back' });
    await stack.poll(p.payment_id, key, (x) => x.status === 'requires_capture');
    // A challenge sends the browser to the ACS instead.
    const { body: q } = await create({ authentication_type: 'three_ds', customer: { email: 'lea+3ds_challenge@example.com' } });
    await post(`${q.payment_link.link}/confirm`, {});
    const c = await post(`${q.payment_link.link}/3ds/authentication`, { device_channel: 'BRW', threeds_method_comp_ind: 'U', browser_info: browser });
    expect(c).toMatchObject({ trans_status: 'C', status: 'requires_customer_action', redirect_to_url: expect.stringContaining('/three_ds_server/acs/challenge?creq=') });
    expect(await (await fetch(c.redirect_to_url)).text()).toContain('Confirm the purchase');
  });

  it('an update before confirmation shows in the link', async () => {
    const { body: p } = await create();
    await stack.api('POST', `/payments/${p.payment_id}`, { amount: 20_000, description: 'Sofa' }, key);
    const r = await stack.api('GET', `/payment_link/${p.payment_link.payment_link_id}`, undefined, key);
    expect(r.body).toMatchObject({ amount: 20_000, description: 'Sofa' });
  });

  it('after session_expiry the link is expired: status expired, the page 410, paying refused and nothing changes', async () => {
    const { body: p } = await create({ session_expiry: 1 });
    await new Promise((r) => setTimeout(r, 1_200));
    expect((await stack.api('GET', `/payment_link/${p.payment_link.payment_link_id}`, undefined, key)).body.status).toBe('expired');
    const res = await page(p.payment_link.link);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain('expired');
    const paid = await fetch(`${p.payment_link.link}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(paid.status).toBe(400);
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.status).toBe('requires_confirmation');
  });

  it('the secure link opens only framed by the merchant\'s site', async () => {
    const { body: p } = await create({ return_url: 'https://shop.example/done' });
    expect((await page(p.payment_link.secure_link)).status).toBe(403);
    const framed = await page(p.payment_link.secure_link, { 'sec-fetch-dest': 'iframe' });
    expect(framed.status).toBe(200);
    expect(framed.headers.get('content-security-policy')).toBe('frame-ancestors https://shop.example');
    const { body: noSite } = await create();
    expect((await page(noSite.payment_link.secure_link, { 'sec-fetch-dest': 'iframe' })).status).toBe(403);
  });
});
