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
    const req = http.request(
      `${stack.gatewayUrl}${path}`,
      { method: 'GET', headers: { 'api-key': apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
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
      // No allowed_domains: the payment has no secure link.
      secure_link: null,
    });
    const r = await stack.api('GET', `/payment_link/${p.payment_link.payment_link_id}`, undefined, key);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      payment_link_id: p.payment_link.payment_link_id,
      merchant_id: merchantId,
      link_to_pay: p.payment_link.link,
      amount: 12_345,
      created_at: p.created,
      status: 'active',
      expiry: p.expires_on,
      description: 'Chair <oak> & table',
      currency: 'EUR',
      secure_link: p.payment_link.secure_link,
    });
  });

  it("without payment_link the payment has none; the link is the merchant's only; bad requests are refused", async () => {
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
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body).toMatchObject({
      status: 'succeeded',
      payment_method: 'pay_later',
      amount_received: 12_345,
    });
    expect(await (await page(p.payment_link.link)).text()).toContain('<p id="state" role="status">Payment received</p>');
    const again = await fetch(`${p.payment_link.link}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await again.json()).error.code).toBe('IR_16');
  });

  it('a three_ds payment: the checkout page runs the 3DS authentication from the browser, then the provider authorizes', async () => {
    const post = async (url: string, body: unknown) =>
      (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    const browser = {
      user_agent: 'Mozilla/5.0',
      language: 'en',
      color_depth: 24,
      screen_height: 800,
      screen_width: 1200,
      time_zone: 0,
      java_enabled: false,
      java_script_enabled: true,
    };
    const { body: p } = await create({ authentication_type: 'three_ds', capture_method: 'manual', return_url: 'https://shop.example/back' });
    expect(await (await page(p.payment_link.link)).text()).toContain('/3ds/authentication');
    expect(await post(`${p.payment_link.link}/confirm`, {})).toEqual({
      payment_id: p.payment_id,
      status: 'requires_customer_action',
      three_ds_invoke: true,
      redirect_to_url: null,
    });
    const bad = await post(`${p.payment_link.link}/3ds/authentication`, {
      device_channel: 'BRW',
      threeds_method_comp_ind: 'U',
      client_secret: p.client_secret,
    });
    expect(bad.error).toMatchObject({ code: 'IR_07', param: 'client_secret' });
    const a = await post(`${p.payment_link.link}/3ds/authentication`, { device_channel: 'BRW', threeds_method_comp_ind: 'U', browser_info: browser });
    expect(a).toMatchObject({ payment_id: p.payment_id, trans_status: 'Y', three_ds_invoke: false, redirect_to_url: 'https://shop.example/back' });
    await stack.poll(p.payment_id, key, (x) => x.status === 'requires_capture');
    // A challenge sends the browser to the ACS instead.
    const { body: q } = await create({ authentication_type: 'three_ds', customer: { email: 'lea+3ds_challenge@example.com' } });
    await post(`${q.payment_link.link}/confirm`, {});
    const c = await post(`${q.payment_link.link}/3ds/authentication`, { device_channel: 'BRW', threeds_method_comp_ind: 'U', browser_info: browser });
    expect(c).toMatchObject({
      trans_status: 'C',
      status: 'requires_customer_action',
      redirect_to_url: expect.stringContaining('/three_ds_server/acs/challenge?creq='),
    });
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
    expect(await res.text()).toContain('This payment link has expired');
    const paid = await fetch(`${p.payment_link.link}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(paid.status).toBe(400);
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.status).toBe('requires_confirmation');
  });

  it('the checkout pages carry a CSP with a nonce, no framing for the open link, no referrer, nosniff', async () => {
    const { body: p } = await create();
    const res = await page(p.payment_link.link);
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    // Every script carries the nonce; none runs from an attribute.
    expect(html.match(/<script[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    expect(html).not.toMatch(/ on[a-z]+=|style="/);
    // A fresh nonce per page.
    expect((await page(p.payment_link.link)).headers.get('content-security-policy')).not.toBe(csp);
  });

  it('return_url and payment_link_config.allowed_domains take only http(s); a refused request creates nothing', async () => {
    for (const bad of [
      'javascript:alert(document.domain)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'ftp://shop.example/x',
      '//shop.example/x',
    ]) {
      const r = await create({ return_url: bad, description: `bad ${bad}` });
      expect(r.status, bad).toBe(400);
      expect(r.body.error.param).toBe('return_url');
    }
    for (const bad of ['javascript:alert(1)', 'https://shop.example/checkout', 'https://shop.example?x=1']) {
      const r = await create({ payment_link_config: { allowed_domains: [bad] }, description: `bad ${bad}` });
      expect(r.status, bad).toBe(400);
      expect(r.body.error.param).toBe('payment_link_config.allowed_domains.0');
    }
    const list = await stack.api('GET', '/payments/list?limit=100', undefined, key);
    expect(JSON.stringify(list.body)).not.toContain('bad ');
    const { body: p } = await create();
    const upd = await stack.api('POST', `/payments/${p.payment_id}`, { return_url: 'javascript:alert(1)' }, key);
    expect(upd.body.error.param).toBe('return_url');
    const conf = await stack.api('POST', `/payments/${p.payment_id}/confirm`, { return_url: 'data:text/html,x', payment_method: 'pay_later' }, key);
    expect(conf.body.error.param).toBe('return_url');
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body).toMatchObject({ status: 'requires_confirmation', return_url: null });
  });

  it('allowed_domains takes only origins: the CSP values of issue 19 are 400 on create and update, stored nowhere; a valid one is exactly the frame-ancestors', async () => {
    const bad = [
      'https://*',
      'https://a.com;sandbox',
      '*',
      'https://a.com; script-src *',
      'https://*.com',
      'https://*.co.uk',
      'https://u:p@shop.example',
      'http://shop.example',
    ];
    const { body: target } = await create({ description: 'update target' });
    for (const value of bad) {
      const r = await create({ payment_link_config: { allowed_domains: ['https://ok.example', value] }, description: `csp ${value}` });
      expect(r.status, value).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'IR_05', param: 'payment_link_config.allowed_domains.1' });
      const u = await stack.api('POST', `/payments/${target.payment_id}`, { payment_link_config: { allowed_domains: [value] } }, key);
      expect(u.status, value).toBe(400);
      expect(u.body.error.param).toBe('payment_link_config.allowed_domains.0');
    }
    const list = await stack.api('GET', '/payments/list?limit=100', undefined, key);
    expect(JSON.stringify(list.body)).not.toContain('csp ');
    expect((await stack.api('GET', `/payments/${target.payment_id}`, undefined, key)).body.payment_link.secure_link).toBeNull();
    // The update takes the same rule, and a valid value is exactly what frames the secure page.
    const ok = await stack.api('POST', `/payments/${target.payment_id}`, { payment_link_config: { allowed_domains: ['https://shop.example'] } }, key);
    expect(ok.status).toBe(200);
    const framed = await page(ok.body.payment_link.secure_link, { 'sec-fetch-dest': 'iframe' });
    expect(framed.status).toBe(200);
    const csp = framed.headers.get('content-security-policy')!;
    expect(csp.split('; ').filter((d) => d.startsWith('frame-ancestors'))).toEqual(['frame-ancestors https://shop.example']);
    expect(csp).not.toMatch(/sandbox|\*/);
  });

  it('a javascript: return_url stored before the rule is never answered as a redirect', async () => {
    const { body: p } = await create({ return_url: 'https://shop.example/done' });
    await (await stack.db()).collection('payments').updateOne({ payment_id: p.payment_id }, { $set: { return_url: 'javascript:alert(document.domain)' } });
    const paid = await (await fetch(`${p.payment_link.link}/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json();
    expect(paid).toEqual({ payment_id: p.payment_id, status: 'succeeded', three_ds_invoke: false, redirect_to_url: null });
  });

  it('a secure link (allowed_domains): framed only by those sites, paid only from its own page, never at the open link', async () => {
    const { body: p } = await create({ payment_link_config: { allowed_domains: ['https://shop.example', 'http://localhost:8080/'], theme: '#000' } });
    const secure = p.payment_link.secure_link;
    expect(secure).toBe(`${stack.gatewayUrl.replace('127.0.0.1', 'localhost')}/payment_link/s/${merchantId}/${p.payment_id}`);
    expect((await stack.api('GET', `/payment_link/${p.payment_link.payment_link_id}`, undefined, key)).body.secure_link).toBe(secure);
    expect((await page(secure)).status).toBe(403);
    const framed = await page(secure, { 'sec-fetch-dest': 'iframe' });
    expect(framed.status).toBe(200);
    expect(framed.headers.get('content-security-policy')).toMatch(/; frame-ancestors https:\/\/shop.example http:\/\/localhost:8080$/);
    expect(framed.headers.get('x-frame-options')).toBeNull();
    // The open link refuses it, page and calls.
    expect((await page(p.payment_link.link)).status).toBe(403);
    const post = (url: string, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
    expect((await post(`${p.payment_link.link}/confirm`)).status).toBe(403);
    // Only the secure page's own calls (same-origin, which the browser sets) pay.
    expect((await post(`${secure}/confirm`)).status).toBe(403);
    expect((await post(`${secure}/confirm`, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.status).toBe('requires_confirmation');
    const paid = await post(`${secure}/confirm`, { 'sec-fetch-site': 'same-origin' });
    expect(await paid.json()).toMatchObject({ payment_id: p.payment_id, status: 'succeeded' });
    // A payment without allowed_domains has no secure link, even with a return_url.
    const { body: open } = await create({ return_url: 'https://shop.example/done' });
    expect(open.payment_link.secure_link).toBeNull();
    const securePath = `${open.payment_link.link.replace('/payment_link/', '/payment_link/s/')}`;
    expect((await page(securePath, { 'sec-fetch-dest': 'iframe' })).status).toBe(403);
    expect((await post(`${securePath}/confirm`, { 'sec-fetch-site': 'same-origin' })).status).toBe(403);
  });
});
