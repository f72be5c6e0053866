// /docs: the API reference page, the gateway's own Express app (buildApp) served in process on a free port (no
// stack: /docs, /docs/scalar.js and /openapi.json read no database). The page names /openapi.json and the local
// bundle, links nothing outside, and its Content-Security-Policy allows only its own origin; in headless Chromium it
// renders the operations and asks nothing of any other origin.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../test/support/chromium.ts';
import { buildApp } from './app.ts';
import { bundlePath, DOCS_CSP } from './docs-page.ts';
import type { Deps } from './operations.ts';

/** A dependency the routes may hold while declared; the rate limiter finds it not ready and lets requests through. */
const inert: unknown = new Proxy(() => inert, { get: () => inert });

let server: Server;
let base: string;
beforeAll(async () => {
  const db = new MongoClient('mongodb://127.0.0.1:1/docs').db();
  const app = buildApp(db, inert as Deps, async () => ({ ok: true, parts: {} }));
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe('/docs', () => {
  it('answers the page: /openapi.json rendered by the local bundle, nothing from elsewhere, CSP self only', async () => {
    const r = await fetch(`${base}/docs`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = r.headers.get('content-security-policy')!;
    expect(csp).toBe(DOCS_CSP);
    for (const directive of ['default-src', 'script-src', 'connect-src', 'font-src', 'img-src', 'style-src']) {
      const sources = csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find(([name]) => name === directive)!
        .slice(1);
      // Only this origin (and inline styles, data: images and fonts): no other host, no scheme-wide source.
      expect(
        sources.every((s) => ["'self'", "'unsafe-inline'", 'data:'].includes(s)),
        `${directive}: ${sources}`,
      ).toBe(true);
    }
    const html = await r.text();
    expect(html).toContain('data-url="/openapi.json"');
    expect(html).toContain('<script src="/docs/scalar.js"></script>');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    // Scalar's own services are off: its default fonts (a CDN), its request proxy, telemetry.
    expect(html).toContain('&quot;withDefaultFonts&quot;:false');
    expect(html).toContain('&quot;proxyUrl&quot;:&quot;&quot;');
    expect(html).toContain('&quot;telemetry&quot;:false');
  });

  it('serves the bundle itself', async () => {
    const r = await fetch(`${base}/docs/scalar.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/javascript/);
    const body = Buffer.from(await r.arrayBuffer());
    expect(body.equals(readFileSync(bundlePath()))).toBe(true);
    // One file: it loads no chunk of its own from anywhere.
    expect(body.toString('latin1')).not.toContain('chunks/');
  });

  it('is keyless, like /openapi.json, and case- and slash-exact like every route', async () => {
    expect((await fetch(`${base}/docs`, { headers: { 'api-key': 'not a key' } })).status).toBe(200);
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${base}/DOCS`)).status).toBe(404);
    expect((await fetch(`${base}/docs/`)).status).toBe(404);
  });

  it('renders the operations in headless Chromium, asking nothing of any other origin', async () => {
    const chrome = await launchChromium('docs');
    const browser = chrome.browser;
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      const violations: string[] = [];
      page.on('request', (req) => requested.push(req.url()));
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      await page.goto(`${base}/docs`);
      // An operation's summary and a tag from the document, as Scalar shows them.
      await page.getByText('Create a payment').first().waitFor({ timeout: 30_000 });
      await page.getByText('Connector accounts').first().waitFor({ timeout: 10_000 });
      await page.screenshot({ path: join(tmpdir(), 'docs-page.png') });
      const origins = [...new Set(requested.filter((u) => /^https?:/.test(u)).map((u) => new URL(u).origin))];
      expect(origins).toEqual([base]);
      expect(requested).toContain(`${base}/openapi.json`);
      expect(requested).toContain(`${base}/docs/scalar.js`);
      expect(violations).toEqual([]);
    } finally {
      await chrome.close();
    }
  }, 90_000);
});
