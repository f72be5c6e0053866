// The API reference at /docs: Scalar's browser bundle, served by the gateway itself (/docs/scalar.js, from
// node_modules), rendering /openapi.json. Nothing is fetched from anywhere else: the page's Content-Security-Policy
// allows only this origin (styles also inline: the bundle injects its own), and Scalar's own services (fonts, request
// proxy, telemetry, agent, MCP) are switched off in its configuration.
import { selfOnlyCsp } from './csp.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Router } from 'express';

const require = createRequire(import.meta.url);
/** Scalar's standalone bundle (one file, no chunks), read at its first request (4 MB a gateway that serves no /docs
 * need not hold); beside the package's entry (dist/), which
 * its exports do not list. */
export const bundlePath = () => join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');

/** Scalar injects its own styles (inline): the self-only policy, with inline styles allowed. */
export const DOCS_CSP = selfOnlyCsp({ inlineStyles: true, extra: ["object-src 'none'", "base-uri 'none'"] });

/** What Scalar is told: our document, no default fonts (a CDN), no request proxy, telemetry, agent or MCP. */
export const SCALAR_CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  proxyUrl: '',
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideDownloadButton: false,
};

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference: BNPL payment switch</title>
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The OpenAPI document itself is at <a href="/openapi.json">/openapi.json</a>.</noscript>
    <script id="api-reference" data-url="/openapi.json" data-configuration="${escapeAttr(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
    <script src="/docs/scalar.js"></script>
  </body>
</html>
`;

export function docsRouter(): Router {
  let bundle: Buffer | undefined;
  const r = Router({ caseSensitive: true, strict: true });
  r.get('/docs', (_req, res) => {
    res.set('content-security-policy', DOCS_CSP).type('html').send(DOCS_PAGE);
  });
  r.get('/docs/scalar.js', (_req, res) => {
    // The same bytes until the next deploy: cached for an hour (the app's default is no-store).
    res
      .set({ 'content-security-policy': DOCS_CSP, 'cache-control': 'public, max-age=3600' })
      .type('text/javascript')
      .send((bundle ??= readFileSync(bundlePath())));
  });
  return r;
}
