// The label sets of every metric: only the attribute keys each instrument declares reach Prometheus, none of them
// names an id, and values that come from requests (routes, actions, codes) stay within closed sets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metrics } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { actionLabel, httpAttributes, METRICS, prometheusFamilies, QUEUE_GAUGES, record, routeOf, type MetricKey } from './metrics.ts';
import { parsePrometheus } from '../test/support/prometheus.ts';

const exporter = new PrometheusExporter({ preventServerStart: true });
const provider = new MeterProvider({ readers: [exporter] });
beforeAll(() => metrics.setGlobalMeterProvider(provider));
afterAll(() => provider.shutdown());

/** What the exporter answers, as a scraper reads it. */
async function scrape(): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const res = { statusCode: 0, setHeader() {}, end: (t: string) => resolve((text += t)) };
    exporter.getMetricsRequestHandler({} as never, res as never);
  });
}

// Ids a careless caller could hand in: none may appear as a label or a label value.
const IDS = {
  payment_id: 'pay_7f3kQ9zXbA1cD2eF3gH4',
  merchant_id: 'mer_9a8b7c6d5e4f',
  'bnpl.payment.id': 'pay_7f3kQ9zXbA1cD2eF3gH4',
  'bnpl.merchant.id': 'mer_9a8b7c6d5e4f',
  operation_id: 'op_1234567890',
  event_id: 'evt_123',
  'url.path': '/payments/pay_7f3kQ9zXbA1cD2eF3gH4',
};
const ID_LIKE = /(^|[._])(id|ids|url|path|email|name)$/;

describe('metric label sets', () => {
  it('no declared label names an id, a URL path or a person', () => {
    for (const spec of [...Object.values(METRICS), ...Object.values(QUEUE_GAUGES)]) {
      for (const a of spec.attributes) expect(a, spec.name).not.toMatch(ID_LIKE);
      expect(spec.name).toMatch(/^(http\.server\.|rpc\.server\.|bnpl\.)/);
    }
  });

  it('a recording carries only its declared keys, whatever it is handed', async () => {
    for (const [key, spec] of Object.entries(METRICS) as [MetricKey, (typeof METRICS)[MetricKey]][]) {
      const given = Object.fromEntries(spec.attributes.map((a) => [a, a.endsWith('status_code') ? 200 : 'x']));
      record(key, { ...given, ...IDS } as never, 0.25);
    }
    const samples = parsePrometheus(await scrape());
    const families = prometheusFamilies();
    for (const s of samples.filter((x) => x.name !== 'target_info')) {
      const family = families.find((f) => [f.name, `${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`].includes(s.name));
      expect(family, s.name).toBeDefined();
      const allowed = new Set([
        ...family!.labels,
        'otel_scope_name',
        'otel_scope_version',
        'otel_scope_schema_url',
        ...(s.name.endsWith('_bucket') ? ['le'] : []),
      ]);
      for (const [k, v] of Object.entries(s.labels)) {
        expect(allowed.has(k), `${s.name} label ${k}`).toBe(true);
        expect(v, `${s.name} ${k}`).not.toMatch(/^(pay|mer|op|evt)_|\/payments\//);
      }
    }
    // Every instrument was exported.
    for (const f of families.filter((f) => f.kind !== 'gauge'))
      expect(
        samples.some((s) => s.name.startsWith(f.name)),
        f.name,
      ).toBe(true);
  });

  it('http.route is the pattern Express matched, never the path; unknown methods are _OTHER', () => {
    expect(routeOf({ baseUrl: '', route: { path: '/payments/:payment_id' } })).toBe('/payments/:payment_id');
    expect(routeOf({ baseUrl: '' })).toBeUndefined();
    expect(httpAttributes('GET', '/payments/:payment_id', 200)).toEqual({
      'http.request.method': 'GET',
      'http.route': '/payments/:payment_id',
      'http.response.status_code': 200,
    });
    // No route matched (a 404): no http.route at all, rather than the path.
    expect(httpAttributes('PROPFIND', undefined, 404)).toEqual({ 'http.request.method': '_OTHER', 'http.response.status_code': 404 });
  });

  it('action and code labels keep closed-set words and turn anything else into other', () => {
    for (const ok of ['confirm', 'outcome:succeeded', 'dispute:dispute_opened', 'UE_7000', 'IR_16', 'HE_02']) expect(actionLabel(ok)).toBe(ok);
    for (const bad of ['pay_7f3kQ9zXbA1cD2eF3gH4', 'outcome:pay_123', 'Connector 123 is not enabled', 'x'.repeat(80)]) expect(actionLabel(bad)).toBe('other');
  });

  it('names as Prometheus shows them follow the OTel names', () => {
    const names = prometheusFamilies().map((f) => f.name);
    expect(names).toContain('http_server_request_duration');
    expect(names).toContain('bnpl_connector_outcomes_total');
    expect(names).toContain('bnpl_queue_jobs');
    expect(names).toContain('bnpl_queue_oldest_job_age');
  });
});
