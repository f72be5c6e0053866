// The screenshots of docs/observability.md (issue 23). Starts the stack as the tests do (test/support/stack.ts), and a
// local Prometheus (Debian's /usr/bin/prometheus: its classic web UI, under /classic) with deploy/prometheus.yml's jobs
// pointed at the stack's ports and deploy/prometheus/alerts.yml's rules; drives payments, stops the webhook worker so
// that ProcessDown fires, and takes Chromium screenshots into docs/images/: the Grafana board's main queries in
// Prometheus's graph (Grafana itself does not run here), the alerts page, the queue dashboard and /docs.
//
//   bash scripts/with-node24.sh node scripts/observability-screenshots.ts
//
// Needs FerretDB and Redis running (as the stack tests), /usr/bin/prometheus (Debian's prometheus package) and
// /usr/bin/chromium. Takes about four minutes: ProcessDown fires after its `for: 2m`.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../test/support/chromium.ts';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { freePort, type PartName, sleep, Stack, until } from '../test/support/stack.ts';

const root = path.resolve(import.meta.dirname, '..');
const PROMETHEUS = '/usr/bin/prometheus';
const OUT = path.join(root, 'docs/images');

/** The board's panels shown in Prometheus's graph, by title (their first query, with Grafana's $__rate_interval as 1m). */
export const BOARD_PANELS: Record<string, string> = {
  'Payments per connector': 'prometheus-payments-per-connector.png',
  'p95 duration by route (gateway)': 'prometheus-p95-by-route.png',
  'Requests by route (gateway)': 'prometheus-requests-by-route.png',
  'Queue depth': 'prometheus-queue-depth.png',
  'Errors by unified code': 'prometheus-errors-by-unified-code.png',
};

/** The board's query of each panel in BOARD_PANELS, as Prometheus takes it. */
export function boardQueries(dashboard: { panels: { title: string; targets?: { expr: string }[] }[] }): { title: string; file: string; expr: string }[] {
  return Object.entries(BOARD_PANELS).map(([title, file]) => {
    const expr = dashboard.panels.find((p) => p.title === title)?.targets?.[0]?.expr;
    if (!expr) throw new Error(`deploy/grafana/dashboards/bnpl.json has no panel "${title}" with a query`);
    return { title, file, expr: expr.replaceAll('$__rate_interval', '1m') };
  });
}

/** deploy/prometheus.yml with each job's targets replaced by the local stack's part, scraped every 2 s. */
export function localConfig(config: string, targets: Record<string, string>, rules: string): string {
  const c = parse(config);
  c.global = { scrape_interval: '2s', evaluation_interval: '2s' };
  c.rule_files = [rules];
  c.scrape_configs = (c.scrape_configs as { job_name: string }[]).map(({ job_name }) => {
    const target = targets[job_name];
    if (!target) throw new Error(`deploy/prometheus.yml's job ${job_name} has no local part`);
    return { job_name, static_configs: [{ targets: [target] }] };
  });
  return stringify(c);
}

/** Prometheus's GET /api/v1/alerts, as far as it is read here. */
const AlertsAnswer = z.object({ data: z.object({ alerts: z.array(z.object({ labels: z.record(z.string(), z.string()), state: z.string() })) }) });

async function drive(stack: Stack, key: string, done: () => boolean): Promise<number> {
  let n = 0;
  while (!done()) {
    const declined = n % 5 === 4;
    const body = {
      amount: 1000 + n,
      currency: 'EUR',
      payment_method: 'pay_later',
      confirm: true,
      ...(declined ? { customer: { email: 'c+decline@example.com' } } : {}),
    };
    const created = await stack.api('POST', '/payments', body, key);
    const id: unknown = created.body?.payment_id;
    if (typeof id === 'string') {
      await stack.api('GET', `/payments/${id}`, undefined, key);
      // A cancel of a succeeded payment: payment-state refuses it (the refusals panel).
      if (n % 7 === 0) await stack.api('POST', `/payments/${id}/cancel`, {}, key);
    }
    if (n % 3 === 0) await stack.api('GET', '/payments/pay_doesnotexist00000000000000', undefined, key);
    n++;
    await sleep(300);
  }
  return n;
}

async function graph(page: Page, prometheus: string, expr: string, file: string): Promise<void> {
  const url = `${prometheus}/classic/graph?g0.expr=${encodeURIComponent(expr)}&g0.tab=0&g0.range_input=5m`;
  await page.goto(url);
  // Rickshaw's lines and legend, once drawn (a flat line has an empty box: attached, not "visible").
  await page.locator('.graph_area svg path').first().waitFor({ state: 'attached', timeout: 20_000 });
  await page.locator('.legend .line').first().waitFor({ state: 'attached', timeout: 5_000 });
  await sleep(500);
  await page.screenshot({ path: path.join(OUT, file), fullPage: true });
  console.log(`docs/images/${file}`);
}

async function main(): Promise<void> {
  for (const bin of [PROMETHEUS, CHROMIUM]) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: apt-get install -y ${path.basename(bin)}`);
  }
  mkdirSync(OUT, { recursive: true });
  const dir = mkdtempSync(path.join(tmpdir(), 'observability-screenshots-'));
  const { stack, api_key: key } = await Stack.withMerchant();
  let prometheus: ReturnType<typeof spawn> | undefined;
  let stop = false;
  let traffic: Promise<number> | undefined;
  try {
    const health = (part: PartName) => `127.0.0.1:${stack.healthPorts[part]}`;
    const targets = {
      gateway: new URL(stack.gatewayUrl).host,
      'provider-sandbox': new URL(stack.sandboxUrl).host,
      'payment-state': health('payment-state'),
      'worker-webhooks': health('worker-webhooks'),
      workers: health('worker'),
    };
    const configFile = path.join(dir, 'prometheus.yml');
    writeFileSync(
      configFile,
      localConfig(readFileSync(path.join(root, 'deploy/prometheus.yml'), 'utf8'), targets, path.join(root, 'deploy/prometheus/alerts.yml')),
    );
    const port = await freePort();
    const promUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(PROMETHEUS, [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    prometheus.stderr?.pipe(createWriteStream(path.join(dir, 'prometheus.log')));
    await until('Prometheus ready', async () => (await fetch(`${promUrl}/-/ready`).catch(() => undefined))?.ok);
    console.log(`Prometheus at ${promUrl} (log: ${dir}/prometheus.log)`);

    // Traffic all along; after a minute the webhook worker stops, and ProcessDown fires 2 minutes later.
    traffic = drive(stack, key, () => stop);
    await sleep(60_000);
    await stack.kill('worker-webhooks', 'SIGTERM');
    const firing = async () => {
      const { alerts } = AlertsAnswer.parse(await (await fetch(`${promUrl}/api/v1/alerts`)).json()).data;
      return alerts.some((a) => a.labels.alertname === 'ProcessDown' && a.labels.job === 'worker-webhooks' && a.state === 'firing');
    };
    const dashboard = JSON.parse(readFileSync(path.join(root, 'deploy/grafana/dashboards/bnpl.json'), 'utf8'));
    const chrome = await launchChromium('observability', { viewport: { width: 1100, height: 640 } });
    const browser = chrome.browser;
    try {
      const page = await browser.newPage();
      await until('ProcessDown firing for worker-webhooks', firing, 200_000);
      stop = true;
      console.log(`${await traffic} payments driven`);
      for (const q of boardQueries(dashboard)) await graph(page, promUrl, q.expr, q.file);

      // The alerts page: the firing rule opened, with its annotations (runbook_url).
      await page.goto(`${promUrl}/classic/alerts`);
      await page.locator('tr.alert-danger.alert_header').first().click();
      await page.locator('button.show-annotations').click();
      await page.screenshot({ path: path.join(OUT, 'prometheus-alerts.png'), fullPage: true });
      console.log('docs/images/prometheus-alerts.png');

      // The queue dashboard, signed in with the admin key; the API reference at /docs.
      await page.goto(`${stack.gatewayUrl}/admin/queues`);
      await page.fill('input[name="api_key"]', stack.adminKey);
      await Promise.all([page.waitForURL(`${stack.gatewayUrl}/admin/queues/`), page.click('button[type="submit"]')]);
      // The service_test queue's completed jobs: the payments just made.
      await page.getByText('connector-service_test').first().click();
      await page.getByText('Completed', { exact: false }).first().click();
      await page.getByText('Loading...').first().waitFor({ state: 'hidden', timeout: 15_000 });
      await sleep(1_000);
      await page.screenshot({ path: path.join(OUT, 'queue-board.png') });
      console.log('docs/images/queue-board.png');
      await page.goto(`${stack.gatewayUrl}/docs`);
      await page.getByText('Payments').first().waitFor({ timeout: 20_000 });
      await sleep(1_000);
      await page.screenshot({ path: path.join(OUT, 'api-docs.png') });
      console.log('docs/images/api-docs.png');
    } finally {
      await chrome.close();
    }
  } finally {
    stop = true;
    await traffic?.catch(() => 0);
    if (prometheus?.pid) process.kill(prometheus.pid, 'SIGTERM');
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
