// The Prometheus alerting rules (issue 23: "what each alert means"): deploy/prometheus/alerts.yml, loaded by
// deploy/prometheus.yml and mounted by docker-compose.yml. promtool (Debian's `prometheus` package) checks the rules
// and the config, and runs alerts.test.yml: every alert fires on its bad case, none on a healthy switch. Every metric
// and label an alert names is one the processes export, and every alert's runbook_url is a section of docs/runbook.md.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exposedSeries, promqlNames, SCRAPE_LABELS, unexposedNames } from './support/prometheus.ts';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
// Parsed YAML, checked field by field below.
type Any = any;
const yamlFile = (file: string): Any => parse(read(file), { merge: true, prettyErrors: true });

const RULES = 'deploy/prometheus/alerts.yml';
const RULE_TESTS = 'deploy/prometheus/alerts.test.yml';
const CONFIG = 'deploy/prometheus.yml';

interface Alert {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
const alerts: Alert[] = (yamlFile(RULES).groups as Any[]).flatMap((g) => g.rules);
const ruleTests: Any[] = yamlFile(RULE_TESTS).tests;

/** promtool's answer; fails with what to install when it is missing (never skipped). */
function promtool(args: string[], cwd = root): { status: number | null; output: string } {
  const r = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error("promtool is not installed: install Debian's `prometheus` package (apt-get install prometheus), which provides /usr/bin/promtool");
  }
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A Markdown heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const runbook = read('docs/runbook.md');
const headings = [...runbook.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!);

/** Labels an alert may group by: each a closed, small set (no id of a payment, merchant or event). */
const BOUNDED_LABELS = new Set(['job', 'instance', 'le', 'http_route', 'bnpl_connector', 'bnpl_queue', 'bnpl_action', 'bnpl_error_code', 'bnpl_sweeper_task']);

describe('Prometheus alerting rules', () => {
  it('promtool accepts the rules, and the config that loads them', () => {
    const rules = promtool(['check', 'rules', RULES]);
    expect(rules.output).toContain(`SUCCESS: ${alerts.length} rules found`);
    expect(rules.status, rules.output).toBe(0);
    const config = promtool(['check', 'config', CONFIG]);
    expect(config.output).toContain('SUCCESS: 1 rule files found');
    expect(config.status, config.output).toBe(0);
  });

  it("promtool's unit tests pass: each alert fires on its bad case, none on a healthy switch", () => {
    const r = promtool(['test', 'rules', RULE_TESTS]);
    expect(r.status, r.output).toBe(0);
    expect(r.output).toContain('SUCCESS');
  });

  it('the unit tests cover every alert, firing and not firing', () => {
    const names = alerts.map((a) => a.alert);
    const cases = ruleTests.flatMap((t) => (t.alert_rule_test as Any[]).map((c) => ({ test: t.name as string, ...c })));
    for (const name of names) {
      expect(
        cases.some((c) => c.alertname === name && c.exp_alerts.length > 0),
        `${name} fires in some test`,
      ).toBe(true);
    }
    const healthy = cases.filter((c) => c.test === 'healthy switch');
    expect(healthy.filter((c) => c.exp_alerts.length === 0).map((c) => c.alertname)).toEqual(names);
    // Every fired alert is expected with its annotations (promtool compares them): its summary and runbook_url.
    for (const c of cases) for (const e of c.exp_alerts) expect(e.exp_annotations?.runbook_url, `${c.test}: ${c.alertname}`).toBeDefined();
  });

  it('a broken rule fails its unit test', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'alert-rules-'));
    try {
      cpSync(path.join(root, RULE_TESTS), path.join(dir, 'alerts.test.yml'));
      // The 5xx ratio threshold raised from 1 % to 50 %: the gateway's one-in-eleven 500s no longer alert.
      const rules = read(RULES);
      expect(rules).toContain('          > 0.01\n');
      writeFileSync(path.join(dir, 'alerts.yml'), rules.replace('          > 0.01\n', '          > 0.5\n'));
      const r = promtool(['test', 'rules', 'alerts.test.yml'], dir);
      expect(r.status).not.toBe(0);
      expect(r.output).toMatch(/FAILED[\s\S]*alertname: GatewayErrorRatio/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prometheus.yml loads the rules, and docker-compose mounts them at the path it names', () => {
    const ruleFiles: string[] = yamlFile(CONFIG).rule_files;
    expect(ruleFiles.map((f) => path.join('deploy', f))).toEqual([RULES]);
    const compose = yamlFile('docker-compose.yml');
    const mounts: string[] = compose.services.prometheus.volumes;
    const configMount = mounts.find((m) => m.startsWith(`./${CONFIG}:`))!;
    const configDir = path.posix.dirname(configMount.split(':')[1]!);
    expect(mounts).toContain(`./${RULES}:${path.posix.join(configDir, ruleFiles[0]!)}:ro`);
    expect(existsSync(path.join(root, RULES))).toBe(true);
  });

  it('every metric and label an alert names is one the processes export; alerts group by bounded labels only', () => {
    const exposed = exposedSeries();
    for (const a of alerts) {
      expect(promqlNames(a.expr).metrics.length, a.alert).toBeGreaterThan(0);
      expect(unexposedNames(a.expr, exposed), `${a.alert}: ${a.expr}`).toEqual([]);
      for (const m of a.expr.matchAll(/\b(?:by|on)\s*\(([^)]*)\)/g)) {
        for (const l of m[1]!.split(',').map((x) => x.trim())) expect(BOUNDED_LABELS.has(l), `${a.alert}: by ${l}`).toBe(true);
      }
    }
    // The unit tests' input series are the processes' own names and labels too (plus the scrape's).
    for (const t of ruleTests) {
      for (const s of t.input_series as { series: string }[]) {
        const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\}$/.exec(s.series);
        expect(m, s.series).not.toBeNull();
        const labels = new Set(exposed.get(m![1]!) ?? []);
        expect(exposed.has(m![1]!), `${t.name}: ${s.series}`).toBe(true);
        for (const l of m![2]!.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)=/g)) {
          expect(labels.has(l[1]!) || SCRAPE_LABELS.includes(l[1]!), `${t.name}: ${l[1]} in ${s.series}`).toBe(true);
        }
      }
    }
  });

  it('every alert has a severity, a summary, a description and a runbook_url: its own section of docs/runbook.md', () => {
    const start = runbook.indexOf('\n## Alerts\n');
    expect(start).toBeGreaterThan(0);
    const alertSection = runbook.slice(start + 1).split(/\n## /)[0]!;
    const subsections = [...alertSection.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
    for (const a of alerts) {
      expect(['critical', 'warning'], a.alert).toContain(a.labels.severity);
      expect(a.annotations.summary, a.alert).toBeTruthy();
      expect(a.annotations.description, a.alert).toBeTruthy();
      expect(a.annotations.runbook_url, a.alert).toBe(`docs/runbook.md#${a.alert.toLowerCase()}`);
      expect(headings.map(anchor), a.alert).toContain(a.alert.toLowerCase());
      expect(runbook, `${a.alert} in the table of contents`).toContain(`- [${a.alert}](#${a.alert.toLowerCase()})`);
    }
    // One subsection per alert, in the rules' order, and the table of contents links the section.
    expect(subsections).toEqual(alerts.map((a) => a.alert));
    expect(runbook).toContain('](#alerts)');
    expect(runbook).not.toContain('(proposed)');
  });
});
