// Debian's Chromium driven by playwright-core, for the tests that need a real browser (checkout, dashboard, queue
// board): a fresh profile each time, removed on close.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export interface Chromium {
  browser: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(name: string, opts: { viewport?: { width: number; height: number } } = {}): Promise<Chromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install it with \`apt-get update && apt-get install -y chromium\` (.ci/run does this)`);
  }
  const profileDir = mkdtempSync(join(tmpdir(), `${name}-chromium-`));
  const browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    ...(opts.viewport ? { viewport: opts.viewport } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
