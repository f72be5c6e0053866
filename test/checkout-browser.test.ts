import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { type Chromium, launchChromium } from './support/chromium.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';

let stack: Stack;
let key: string;
let browser: BrowserContext;
let chrome: Chromium | undefined;
const sites: http.Server[] = [];

/** A merchant's site: /frame?src= frames a checkout link, /done is where the customer comes back. */
async function site(): Promise<string> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    res.setHeader('content-type', 'text/html');
    if (url.pathname === '/frame')
      return res.end(
        `<!doctype html><h1>Shop</h1><iframe id="checkout" width="600" height="400" src="${url.searchParams.get('src')!.replace(/"/g, '&quot;')}"></iframe>`,
      );
    res.end('<!doctype html><p id="back">Back at the shop</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  sites.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  ({ stack, api_key: key } = await Stack.withMerchant());
  chrome = await launchChromium('checkout');
  browser = chrome.browser;
});
afterAll(async () => {
  await chrome?.close();
  for (const s of sites) s.close();
  await stack?.stop();
});

const create = async (body: Record<string, unknown> = {}) =>
  (await stack.api('POST', '/payments', { amount: 4_200, currency: 'EUR', payment_link: true, ...body }, key)).body;

/** A fresh page that records every dialog (alert, confirm…) a script opens. */
async function newPage(): Promise<{ page: Page; dialogs: string[] }> {
  const page = await browser.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { page, dialogs };
}

/** The frames of a page that show a checkout pay button. */
async function checkoutFrames(page: Page) {
  const shown = [];
  for (const f of page.frames())
    if (
      f !== page.mainFrame() &&
      (await f
        .locator('#pay')
        .count()
        .catch(() => 0))
    )
      shown.push(f);
  return shown;
}

describe('checkout pages in Chromium', () => {
  it('a javascript: or data: return_url stored before the fix never runs: the page stays and shows the result', async () => {
    for (const evil of ['javascript:alert(document.domain)', 'data:text/html,<script>alert(document.domain)</script>']) {
      const p = await create({ return_url: 'https://shop.example/done' });
      // Written straight into the database, as a payment created before the URL rule would be.
      await (await stack.db()).collection('payments').updateOne({ payment_id: p.payment_id }, { $set: { return_url: evil } });
      const { page, dialogs } = await newPage();
      await page.goto(p.payment_link.link);
      await page.click('#pay');
      await expect.poll(() => page.textContent('#state'), { timeout: 15_000 }).toBe('Payment received');
      await page.waitForTimeout(300);
      expect(dialogs).toEqual([]);
      expect(page.url()).toBe(p.payment_link.link);
      await page.close();
    }
  });

  it('an http(s) return_url is followed after paying at the open link', async () => {
    const shop = await site();
    const p = await create({ return_url: `${shop}/done` });
    const { page } = await newPage();
    await page.goto(p.payment_link.link);
    await page.click('#pay');
    await page.waitForURL(`${shop}/done`);
    expect(await page.textContent('#back')).toBe('Back at the shop');
    await page.close();
  });

  it('the open link cannot be framed, by any site', async () => {
    const shop = await site();
    const p = await create();
    const { page } = await newPage();
    await page.goto(`${shop}/frame?src=${encodeURIComponent(p.payment_link.link)}`);
    await page.waitForTimeout(500);
    expect(await checkoutFrames(page)).toEqual([]);
    await page.close();
  });

  it('the secure link shows and pays only inside an allowed site; elsewhere, or on its own, it does not show', async () => {
    const [shop, other] = [await site(), await site()];
    const p = await create({ return_url: `${shop}/done`, payment_link_config: { allowed_domains: [shop] } });
    const secure = p.payment_link.secure_link;

    const { page: elsewhere } = await newPage();
    await elsewhere.goto(`${other}/frame?src=${encodeURIComponent(secure)}`);
    await elsewhere.waitForTimeout(500);
    expect(await checkoutFrames(elsewhere)).toEqual([]);
    await elsewhere.close();

    const { page: alone } = await newPage();
    const res = await alone.goto(secure);
    expect(res?.status()).toBe(403);
    expect(await alone.locator('#pay').count()).toBe(0);
    // Nor is the payment served at its open link.
    expect((await alone.goto(p.payment_link.link))?.status()).toBe(403);
    await alone.close();

    const { page, dialogs } = await newPage();
    await page.goto(`${shop}/frame?src=${encodeURIComponent(secure)}`);
    await expect.poll(async () => (await checkoutFrames(page)).length, { timeout: 15_000 }).toBe(1);
    const [frame] = await checkoutFrames(page);
    await frame!.click('#pay');
    // Paid from inside the frame, which then goes back to the shop.
    await expect.poll(async () => page.frames().some((f) => f.url() === `${shop}/done`), { timeout: 15_000 }).toBe(true);
    expect((await stack.api('GET', `/payments/${p.payment_id}`, undefined, key)).body.status).toBe('succeeded');
    expect(dialogs).toEqual([]);
    await page.close();
  });
});
