// docker-compose.yml's observability (issue 23): the OpenTelemetry collector, Jaeger, Prometheus and Grafana, and the
// files they read from deploy/. No Docker engine: each file is parsed (the `yaml` package, with compose's merge keys)
// and checked against what the processes expose: every scrape target is a compose service and the port its /metrics
// answers on, every worker of the registry is scraped, every metric and label the dashboard's PromQL names exists in
// lib/metrics.ts's prometheusFamilies(). Pure, no stack.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderPrometheus } from '../scripts/connectors-gen.ts';
import { BOARD_PANELS, boardQueries, localConfig } from '../scripts/observability-screenshots.ts';
import { IMPLEMENTED } from '../workers/connectors/manifests.ts';
import { exposedSeries, promqlNames, unexposedNames } from './support/prometheus.ts';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
// Parsed YAML and JSON, checked field by field below.
type Any = any;
const yamlFile = (file: string): Any => parse(read(file), { merge: true, prettyErrors: true });

const compose = yamlFile('docker-compose.yml');
const services: Record<string, Any> = compose.services;
const prometheus = yamlFile('deploy/prometheus.yml');
const dashboard: Any = JSON.parse(read('deploy/grafana/dashboards/bnpl.json'));

/** Our processes: the services built from this repo (`node ...` commands). */
const processes = Object.entries(services)
  .filter(([, s]) => s.build !== undefined)
  .map(([name]) => name);

/** Every `host:port` Prometheus scrapes, by job: static targets and DNS names with their port. */
function scrapeTargets(): { job: string; host: string; port: number }[] {
  const out: { job: string; host: string; port: number }[] = [];
  for (const job of prometheus.scrape_configs as Any[]) {
    for (const sc of job.static_configs ?? []) {
      for (const t of sc.targets as string[]) {
        const [host, port] = t.split(':');
        out.push({ job: job.job_name, host: host!, port: Number(port) });
      }
    }
    for (const sd of job.dns_sd_configs ?? []) for (const host of sd.names as string[]) out.push({ job: job.job_name, host, port: Number(sd.port) });
  }
  return out;
}

/** The port a compose service's process answers /metrics on: PORT (gateway), SANDBOX_PORT (sandbox), else HEALTH_PORT. */
function metricsPort(service: string): number | undefined {
  const env = services[service]?.environment ?? {};
  const port = env.PORT ?? env.SANDBOX_PORT ?? env.HEALTH_PORT;
  return port === undefined ? undefined : Number(port);
}

const dashboardQueries = (): { panel: string; expr: string }[] =>
  (dashboard.panels as Any[]).flatMap((p) => (p.targets ?? []).map((t: Any) => ({ panel: p.title as string, expr: t.expr as string })));

describe('docker-compose observability: collector, Jaeger, Prometheus, Grafana', () => {
  it('every process sends its traces to the collector, which receives OTLP/HTTP and exports to Jaeger', () => {
    for (const name of processes) expect(services[name].environment.OTEL_EXPORTER_OTLP_ENDPOINT, name).toBe('http://otel-collector:4318');
    const collector = yamlFile('deploy/otel-collector.yaml');
    expect(collector.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    const traces = collector.service.pipelines.traces;
    expect(traces.receivers).toEqual(['otlp']);
    for (const e of traces.exporters as string[]) expect(Object.keys(collector.exporters), e).toContain(e);
    for (const p of traces.processors as string[]) expect(Object.keys(collector.processors), p).toContain(p);
    expect(collector.exporters['otlp/jaeger'].endpoint).toBe('jaeger:4317');
    expect(services.jaeger.image).toMatch(/^jaegertracing\/all-in-one:/);
    expect(services['otel-collector'].volumes).toContain('./deploy/otel-collector.yaml:/etc/otelcol/config.yaml:ro');
  });

  it('Prometheus scrapes every process, each at a compose service and the port its /metrics answers on', () => {
    expect(services.prometheus.volumes).toContain('./deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro');
    const targets = scrapeTargets();
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) {
      expect(Object.keys(services), `${t.job}: ${t.host}`).toContain(t.host);
      expect(metricsPort(t.host), `${t.job}: ${t.host}:${t.port}`).toBe(t.port);
    }
    expect([...new Set(targets.map((t) => t.host))].sort()).toEqual([...processes].sort());
    // The connector workers: exactly the registry's (`npm run connectors:gen` writes them with the compose services;
    // test/connectors.test.ts checks both are up to date).
    const workers = targets.filter((t) => t.job === 'workers').map((t) => t.host.replace(/^worker-/, ''));
    expect(workers.sort()).toEqual([...IMPLEMENTED].sort());
  });

  it("a new connector joins Prometheus's worker targets through the generator", () => {
    const config = parse(renderPrometheus(read('deploy/prometheus.yml'), [...IMPLEMENTED, 'newpay'].sort()));
    const names: string[] = config.scrape_configs.find((j: Any) => j.job_name === 'workers').dns_sd_configs[0].names;
    expect(names).toContain('worker-newpay');
    expect(names).toHaveLength(IMPLEMENTED.length + 1);
  });

  it("Grafana is provisioned from the repo: Prometheus and Jaeger data sources, the dashboards' folder", () => {
    const mounts: string[] = services.grafana.volumes;
    expect(mounts).toContain('./deploy/grafana/provisioning:/etc/grafana/provisioning:ro');
    expect(mounts).toContain('./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro');
    const sources = readdirSync(path.join(root, 'deploy/grafana/provisioning/datasources')).flatMap(
      (f) => yamlFile(`deploy/grafana/provisioning/datasources/${f}`).datasources as Any[],
    );
    const prom = sources.find((s) => s.type === 'prometheus');
    expect(prom.url).toBe(`http://prometheus:${services.prometheus.ports[0].split(':').at(-1)}`);
    expect(sources.find((s) => s.type === 'jaeger').url).toBe('http://jaeger:16686');
    const providers = readdirSync(path.join(root, 'deploy/grafana/provisioning/dashboards')).flatMap(
      (f) => yamlFile(`deploy/grafana/provisioning/dashboards/${f}`).providers as Any[],
    );
    expect(providers.map((p) => p.options.path)).toEqual(['/var/lib/grafana/dashboards']);
    // Every panel's data source is the provisioned Prometheus.
    for (const p of dashboard.panels as Any[]) expect(p.datasource.uid, p.title).toBe(prom.uid);
  });

  it('the dashboard shows payments per connector, p95 by route, queue depth and errors', () => {
    const exprs = dashboardQueries().map((q) => q.expr);
    expect(exprs.some((e) => /bnpl_connector_outcomes_total/.test(e) && /by \([^)]*bnpl_connector/.test(e))).toBe(true);
    expect(exprs.some((e) => /histogram_quantile\(0\.95,.*http_server_request_duration_bucket/.test(e) && /by \([^)]*http_route/.test(e))).toBe(true);
    expect(exprs.some((e) => /bnpl_queue_jobs/.test(e) && /waiting/.test(e))).toBe(true);
    expect(exprs.some((e) => /bnpl_connector_errors_total/.test(e))).toBe(true);
    expect(exprs.some((e) => /http_response_status_code=~"5\.\."/.test(e))).toBe(true);
  });

  it("every metric and label the dashboard's queries name is one the processes expose", () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) {
      expect(promqlNames(q.expr).metrics.length, `${q.panel}: ${q.expr}`).toBeGreaterThan(0);
      expect(unexposedNames(q.expr), `${q.panel}: ${q.expr}`).toEqual([]);
    }
  });

  it('the PromQL reader finds metric names and labels, and not functions or keywords', () => {
    expect(promqlNames('histogram_quantile(0.95, sum by (le, http_route) (rate(http_server_request_duration_bucket{job="gateway"}[5m])))')).toEqual({
      metrics: ['http_server_request_duration_bucket'],
      labels: ['job', 'le', 'http_route'],
    });
    expect(promqlNames('bnpl_nope_total{a=~"x|y"} / on (b) other').metrics).toEqual(['bnpl_nope_total', 'other']);
    // A misspelt metric, or a label its metric does not carry, is caught.
    expect(exposedSeries().has('bnpl_connector_outcome_total')).toBe(false);
    expect(unexposedNames('sum(rate(bnpl_connector_outcome_total[5m]))')).toEqual(['metric bnpl_connector_outcome_total is not exported']);
    expect(unexposedNames('sum by (payment_id) (rate(bnpl_connector_outcomes_total[5m]))')).toEqual([
      'label payment_id is on none of bnpl_connector_outcomes_total',
    ]);
  });

  it("the screenshot script shows the board's own queries and re-targets every job of prometheus.yml", () => {
    const queries = boardQueries(dashboard);
    expect(queries.map((q) => q.title)).toEqual(Object.keys(BOARD_PANELS));
    for (const q of queries) {
      expect(q.expr).not.toContain('$__');
      expect(dashboardQueries().some((d) => d.expr.replaceAll('$__rate_interval', '1m') === q.expr)).toBe(true);
    }
    const jobs = (prometheus.scrape_configs as Any[]).map((j) => j.job_name as string);
    const local = parse(localConfig(read('deploy/prometheus.yml'), Object.fromEntries(jobs.map((j, i) => [j, `127.0.0.1:${9000 + i}`])), '/rules.yml'));
    expect(local.rule_files).toEqual(['/rules.yml']);
    expect(local.scrape_configs.map((j: Any) => [j.job_name, j.static_configs[0].targets])).toEqual(jobs.map((j, i) => [j, [`127.0.0.1:${9000 + i}`]]));
    expect(() => localConfig(read('deploy/prometheus.yml'), {}, '/rules.yml')).toThrow(/has no local part/);
  });
});
