// GET /metrics on the real processes (issue 23): a payment made through the gateway shows in the gateway's RED
// metrics, payment-state's transitions and the service_test worker's provider calls, outcomes and queue gauges;
// the webhook worker counts its deliveries. Every label is one its instrument declares (no id as a label).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prometheusFamilies } from '../lib/metrics.ts';
import { freePort, Stack, type PartName } from './support/stack.ts';
import { parsePrometheus, total, type Sample } from './support/prometheus.ts';

let stack: Stack;
let key: string;
let merchantId: string;
let server: Server;
let hooks = 0;
beforeAll(async () => {
  ({ stack, api_key: key, merchant_id: merchantId } = await Stack.withMerchant());
  const port = await freePort();
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hooks++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const profiles = await stack.api('GET', `/account/${merchantId}/business_profile`, undefined, stack.adminKey);
  const set = await stack.api(
    'POST',
    `/account/${merchantId}/business_profile/${profiles.body[0].profile_id}`,
    { webhook_details: { webhook_url: `http://127.0.0.1:${port}/hooks` } },
    stack.adminKey,
  );
  expect(set.status, JSON.stringify(set.body)).toBe(200);
}, 120_000);
afterAll(async () => {
  server?.close();
  await stack?.stop();
});

async function scrape(url: string): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await res.text();
  return { text, samples: parsePrometheus(text) };
}
/** payment-state and the workers serve /metrics on their health server (HEALTH_PORT, lib/health.ts). */
const at = (part: PartName) => `${stack.healthUrl(part)}/metrics`;

/** Every sample's labels are its family's declared ones (plus the exporter's scope labels and a bucket's le). */
function onlyDeclaredLabels(samples: Sample[]): void {
  const families = prometheusFamilies();
  for (const s of samples) {
    const family = families.find((f) => [f.name, `${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`].includes(s.name));
    if (!family) continue; // target_info and nothing else of ours
    const allowed = new Set([...family.labels, 'otel_scope_name', 'otel_scope_version', 'otel_scope_schema_url', 'le']);
    for (const [k, v] of Object.entries(s.labels)) {
      expect(allowed.has(k), `${s.name} ${k}`).toBe(true);
      expect(v).not.toContain(merchantId);
      expect(v).not.toMatch(/^pay_|\/payments\/pay_/);
    }
  }
}

describe('/metrics on every process', () => {
  let paymentId: string;
  beforeAll(async () => {
    const ok = await stack.api('POST', '/payments', { amount: 10_000, currency: 'EUR', payment_method: 'pay_later', confirm: true }, key);
    expect(ok.body.status, JSON.stringify(ok.body)).toBe('succeeded');
    paymentId = ok.body.payment_id;
    await stack.api('GET', `/payments/${paymentId}`, undefined, key);
    await stack.api('GET', '/payments/pay_doesnotexist00000000000000', undefined, key);
    const declined = await stack.api(
      'POST',
      '/payments',
      { amount: 10_000, currency: 'EUR', payment_method: 'pay_later', confirm: true, customer: { email: 'c+decline@example.com' } },
      key,
    );
    expect(declined.body.status, JSON.stringify(declined.body)).toBe('failed');
    // A cancel of a succeeded payment: payment-state refuses it.
    expect((await stack.api('POST', `/payments/${paymentId}/cancel`, {}, key)).status).toBe(400);
  }, 60_000);

  it('gateway: http.server.request.duration by method, route pattern and status', async () => {
    const { text, samples } = await scrape(`${stack.gatewayUrl}/metrics`);
    expect(text).toContain('# TYPE http_server_request_duration histogram');
    expect(text).toMatch(/target_info\{[^}]*service_name="gateway"/);
    expect(
      total(samples, 'http_server_request_duration_count', { http_request_method: 'POST', http_route: '/payments', http_response_status_code: '200' }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      total(samples, 'http_server_request_duration_count', {
        http_request_method: 'GET',
        http_route: '/payments/:payment_id',
        http_response_status_code: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      total(samples, 'http_server_request_duration_count', { http_route: '/payments/:payment_id', http_response_status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    const sum = total(samples, 'http_server_request_duration_sum', { http_request_method: 'POST', http_route: '/payments' });
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(60);
    expect(text).not.toContain(paymentId);
    onlyDeclaredLabels(samples);
  });

  it('payment-state: transitions applied and refused, sweeper runs', async () => {
    const { text, samples } = await scrape(at('payment-state'));
    expect(text).toMatch(/target_info\{[^}]*service_name="payment-state"/);
    expect(total(samples, 'bnpl_transitions_applied_total', { bnpl_action: 'confirm' })).toBeGreaterThanOrEqual(2);
    expect(total(samples, 'bnpl_transitions_applied_total', { bnpl_action: 'outcome:captured' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'bnpl_transitions_applied_total', { bnpl_action: 'outcome:declined' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'bnpl_transitions_refused_total', { bnpl_action: 'cancel', bnpl_error_code: 'IR_16' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'rpc_server_call_duration_count', { rpc_method: 'Begin', rpc_grpc_status_code: '0' })).toBeGreaterThanOrEqual(2);
    expect(total(samples, 'rpc_server_call_duration_count', { rpc_method: 'Complete', rpc_grpc_status_code: '0' })).toBeGreaterThanOrEqual(2);
    expect(total(samples, 'bnpl_sweeper_runs_total', { bnpl_sweeper_task: 'sweep' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'bnpl_sweeper_runs_total', { bnpl_sweeper_task: 'pick_up' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(paymentId);
    onlyDeclaredLabels(samples);
  });

  it('the service_test worker: provider calls, outcomes, errors by unified code, queue gauges', async () => {
    const { text, samples } = await scrape(at('worker'));
    expect(text).toMatch(/target_info\{[^}]*service_name="worker"/);
    const calls = total(samples, 'bnpl_provider_call_duration_count', { bnpl_connector: 'service_test', http_request_method: 'POST' });
    expect(calls).toBeGreaterThanOrEqual(2);
    const seconds = total(samples, 'bnpl_provider_call_duration_sum', { bnpl_connector: 'service_test' });
    expect(seconds).toBeGreaterThan(0);
    expect(seconds / calls).toBeLessThan(30);
    expect(
      total(samples, 'bnpl_connector_outcomes_total', {
        bnpl_connector: 'service_test',
        bnpl_operation_kind: 'authorize',
        bnpl_outcome_kind: 'CAPTURED',
        bnpl_job_mode: 'execute',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'bnpl_connector_outcomes_total', { bnpl_connector: 'service_test', bnpl_outcome_kind: 'DECLINED' })).toBeGreaterThanOrEqual(1);
    const errors = samples.filter((s) => s.name === 'bnpl_connector_errors_total' && s.labels.bnpl_connector === 'service_test');
    expect(errors.length).toBeGreaterThanOrEqual(1);
    for (const e of errors) expect(e.labels.bnpl_error_code).toMatch(/^(UE_\d+|unmapped)$/);
    // The queue of every connector this worker serves, each state: a plausible count (nothing waits here).
    const queueSamples = samples.filter((s) => s.name === 'bnpl_queue_jobs');
    const queues = new Set(queueSamples.map((s) => s.labels.bnpl_queue));
    expect([...queues].some((q) => q!.includes('service_test'))).toBe(true);
    expect(new Set(queueSamples.map((s) => s.labels.bnpl_queue_job_state))).toEqual(new Set(['waiting', 'active', 'delayed', 'failed']));
    for (const s of queueSamples) expect(s.value).toBeGreaterThanOrEqual(0);
    for (const s of samples.filter((x) => x.name === 'bnpl_queue_oldest_job_age')) expect(s.value).toBeGreaterThanOrEqual(0);
    expect(text).not.toContain(paymentId);
    onlyDeclaredLabels(samples);
  });

  it('the webhook worker: delivery attempts and outcomes, the webhooks queue', async () => {
    const deadline = Date.now() + 20_000;
    let samples: Sample[] = [];
    while (Date.now() < deadline) {
      samples = (await scrape(at('worker-webhooks'))).samples;
      if (total(samples, 'bnpl_webhook_deliveries_total', { bnpl_webhook_delivery_status: 'delivered' }) >= 2) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(hooks).toBeGreaterThanOrEqual(2);
    expect(
      total(samples, 'bnpl_webhook_delivery_attempts_total', { bnpl_webhook_attempt_result: 'delivered', bnpl_webhook_trigger: 'automatic' }),
    ).toBeGreaterThanOrEqual(2);
    expect(total(samples, 'bnpl_webhook_deliveries_total', { bnpl_webhook_delivery_status: 'delivered' })).toBeGreaterThanOrEqual(2);
    expect(samples.some((s) => s.name === 'bnpl_queue_jobs' && /webhook/.test(s.labels.bnpl_queue ?? ''))).toBe(true);
    onlyDeclaredLabels(samples);
  });

  it('the sandbox answers /metrics too, and other paths of a health port are 404', async () => {
    const { text } = await scrape(`${stack.sandboxUrl}/metrics`);
    expect(text).toMatch(/target_info\{[^}]*service_name="provider-sandbox"/);
    expect((await fetch(at('worker').replace('/metrics', '/other'))).status).toBe(404);
  });
});
