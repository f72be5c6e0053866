// The merchant dashboard in a real headless Chromium (issue 23): sign up, add a service_test connector account and a
// webhook URL, create a payment link payment through the API with the key the dashboard showed, pay it on the checkout
// page ("Payment received"), find it on the dashboard as succeeded, open its timeline (transitions, provider calls,
// events, webhook deliveries), refund part of it from the page and see the refund listed.
// Screenshots of each step go to test-output/screenshots/ (their paths are logged); with DASHBOARD_DOCS_SCREENSHOTS=1
// the same files are also written to docs/images/, the ones docs/dashboard.md shows.
import { copyFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { type Chromium, launchChromium } from './support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_PASSWORD, newDashboardEmail } from './support/dashboard.ts';
import { Stack } from './support/stack.ts';

const SHOTS = join(import.meta.dirname, '..', 'test-output', 'screenshots');
const DOCS_IMAGES = process.env.DASHBOARD_DOCS_SCREENSHOTS === '1' ? join(import.meta.dirname, '..', 'docs', 'images') : null;

let stack: Stack;
let browser: BrowserContext;
let chrome: Chromium | undefined;
let receiver: http.Server;
let receiverUrl: string;
const delivered: string[] = [];

beforeAll(async () => {
  stack = await Stack.start({ TRACE_VIEWER_URL: 'http://127.0.0.1:16686/trace/{trace_id}' });
  // The merchant's webhook endpoint: answers 200 to every delivery.
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      delivered.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  chrome = await launchChromium('dashboard', { viewport: { width: 1200, height: 800 } });
  browser = chrome.browser;
  mkdirSync(SHOTS, { recursive: true });
  if (DOCS_IMAGES) mkdirSync(DOCS_IMAGES, { recursive: true });
}, 120_000);
afterAll(async () => {
  await chrome?.close();
  receiver?.close();
  await stack?.stop();
});

/** Saves the page (or one element of it) as test-output/screenshots/dashboard-<name>.png, and logs where. */
async function shot(page: Page, name: string, opts: { fullPage?: boolean; selector?: string } = {}): Promise<void> {
  const path = join(SHOTS, `dashboard-${name}.png`);
  if (opts.selector) await page.locator(opts.selector).screenshot({ path });
  else await page.screenshot({ path, fullPage: opts.fullPage ?? false });
  console.log(`screenshot: ${path}`);
  if (DOCS_IMAGES) copyFileSync(path, join(DOCS_IMAGES, `dashboard-${name}.png`));
}

/** A form's submit, waiting for the page it answers with. */
async function submit(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

describe('merchant dashboard in Chromium', () => {
  it('sign up, get a key, pay on the checkout page, see the payment succeed, its timeline, refund part of it', async () => {
    const page = await browser.newPage();
    const dashboard = (path: string) => page.goto(`${stack.gatewayUrl}/dashboard${path}`);

    // Sign up: the secret key is shown this once.
    await dashboard('/signup');
    await page.fill('input[name=business_name]', 'Oak & Sons Furniture');
    await page.fill('input[name=email]', newDashboardEmail());
    await page.fill('input[name=password]', DASHBOARD_PASSWORD);
    await shot(page, '01-sign-up');
    await submit(page, 'button[type=submit]');
    const secretKey = (await page.textContent('#secret-key'))?.trim() ?? '';
    expect(secretKey).toMatch(/^snd_/);
    await shot(page, '02-signed-up');

    await dashboard('');
    const merchantId = (await page.textContent('#merchant-id'))?.trim() ?? '';
    expect(merchantId).not.toBe('');
    await shot(page, '03-overview');
    await dashboard('/keys');
    await shot(page, '04-keys');

    // A service_test connector account, with the sandbox's credentials.
    await dashboard('/connectors?connector=service_test');
    await page.fill('input[name="connector_account_details.api_key"]', 'sk_sandbox_service_test');
    await page.fill('input[name=connector_label]', 'Sandbox');
    await submit(page, 'form[method=post][action="/dashboard/connectors"] button[type=submit]');
    await expect.poll(() => page.locator('table tr[id^="mca-"]').count()).toBe(1);
    await shot(page, '05-connectors');

    // The webhook URL: events of the payment are delivered there.
    await dashboard('/webhooks');
    await page.fill('input[name="webhook_details.webhook_url"]', receiverUrl);
    await submit(page, 'form[action^="/dashboard/webhooks/pro_"]:not([action$="/secret"]) button[type=submit]');
    expect(await page.inputValue('input[name="webhook_details.webhook_url"]')).toBe(receiverUrl);
    await shot(page, '06-webhooks');

    // A payment link payment, made through the API with the key the dashboard showed.
    const created = await stack.api(
      'POST',
      '/payments',
      {
        amount: 12_900,
        currency: 'EUR',
        payment_link: true,
        merchant_order_reference_id: 'ORDER-1042',
        description: 'Oak dining chair, set of two',
        customer_id: 'cus_erika',
      },
      secretKey,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const paymentId: string = created.body.payment_id;

    // The customer pays on the checkout page, which names the merchant and the order.
    await page.goto(created.body.payment_link.link);
    expect(await page.textContent('#merchant')).toBe('Pay Oak & Sons Furniture');
    expect(await page.textContent('#order')).toBe('Order ORDER-1042');
    expect(await page.textContent('#amount')).toBe('129.00 EUR');
    await shot(page, '07-checkout');
    await page.click('#pay');
    await expect.poll(() => page.textContent('#state'), { timeout: 15_000 }).toBe('Payment received');
    await shot(page, '08-checkout-paid');

    // Two more payments beside it (one waiting for its capture, one cancelled), for the list to show.
    const other = { amount: 4_990, currency: 'EUR', confirm: true, capture_method: 'manual', payment_method: 'pay_later', customer_id: 'cus_jonas' };
    const held = await stack.api('POST', '/payments', { ...other, merchant_order_reference_id: 'ORDER-1043' }, secretKey);
    const dropped = await stack.api('POST', '/payments', { ...other, amount: 1_500, merchant_order_reference_id: 'ORDER-1044' }, secretKey);
    await stack.api('POST', `/payments/${dropped.body.payment_id}/cancel`, { cancellation_reason: 'Out of stock' }, secretKey);

    // On the dashboard: succeeded; the status filter finds it alone.
    await dashboard('/payments');
    const row = page.locator(`tr[data-payment-id="${paymentId}"]`);
    expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('succeeded');
    expect(await page.locator(`tr[data-payment-id="${held.body.payment_id}"] [data-status]`).getAttribute('data-status')).toBe('requires_capture');
    await shot(page, '09-payments');
    await page.selectOption('select[name=status]', 'succeeded');
    await submit(page, 'form[role=search] button[type=submit]');
    expect(await page.locator('#payments tr[data-payment-id]').count()).toBe(1);

    // Its page: the amounts, and the timeline with transitions, the provider call, events and their deliveries.
    await row.locator('a').click();
    await page.waitForURL(`**/dashboard/payments/${paymentId}`);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator('#timeline tr[data-kind="webhook_attempt"]').count();
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    expect(await page.locator('#timeline tr[data-kind="transition"]').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('#timeline tr[data-kind="provider_call"]').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('#timeline tr[data-kind="event"]').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('#timeline').textContent()).toContain('Webhook delivered');
    expect(await page.locator('#trace-ids a').first().getAttribute('href')).toMatch(/^http:\/\/127\.0\.0\.1:16686\/trace\/[0-9a-f]{32}$/);
    expect(delivered.length).toBeGreaterThan(0);
    await shot(page, '10-payment');
    await page.locator('#timeline').scrollIntoViewIfNeeded();
    await shot(page, '11-payment-timeline', { selector: '#timeline' });

    // Refund part of it from the page.
    await page.fill('#refund-form input[name=amount]', '30.00');
    await page.fill('#refund-form input[name=reason]', 'One chair arrived scratched');
    await submit(page, '#refund-form button[type=submit]');
    expect(await page.textContent('#refund-form [role=status]')).toMatch(/^Refunded 30\.00 EUR \(ref_[A-Za-z0-9]+\)$/);
    expect(await page.textContent('#payment-refunds')).toContain('One chair arrived scratched');
    await shot(page, '12-refunded');

    await dashboard('/refunds');
    const refunds = page.locator('#refunds tr[data-refund-id]');
    expect(await refunds.count()).toBe(1);
    expect(await refunds.first().textContent()).toContain('30.00 EUR');
    expect(await refunds.first().textContent()).toContain(paymentId);
    await shot(page, '13-refunds');

    await dashboard('/disputes');
    expect(await page.textContent('#disputes')).toContain('No disputes match.');
    await shot(page, '14-disputes');

    // Through the API, the same: one refund of 30.00 on a succeeded payment.
    const p = (await stack.api('GET', `/payments/${paymentId}`, undefined, secretKey)).body;
    expect(p.status).toBe('succeeded');
    expect(p.refunds).toMatchObject([{ amount: 3_000, status: 'succeeded', reason: 'One chair arrived scratched' }]);
    expect(merchantId).toBe(p.merchant_id);
    await page.close();
  });
});
