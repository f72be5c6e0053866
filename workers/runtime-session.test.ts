// What the runtime hands every connector call (callFor): where the connector runs and our notification address, so
// connectors read no configuration themselves. Pure, no stack.
import { describe, expect, it } from 'vitest';
import type { ConnectorJob } from '../domain/job.ts';
import { DEFAULT_ACCOUNT_ID } from '../domain/connectors.ts';
import { config, connectorSetting } from '../lib/config.ts';
import { callFor, environmentOf, notificationUrlOf } from './runtime.ts';
import { connector as serviceTest } from './connectors/service_test/index.ts';

const job = (over: Partial<ConnectorJob> = {}): ConnectorJob => ({
  merchant_id: 'mer_1',
  payment_id: 'pay_000000000000000000000000001',
  operation_id: 'op_1',
  kind: 'authorize',
  connector: 'service_test',
  amount: 10000,
  currency: 'EUR',
  capture_method: 'manual',
  connector_transaction_id: null,
  customer_email: 'jane@example.com',
  return_url: 'https://shop.example/return',
  merchant_order_reference_id: 'order-1',
  mode: 'execute',
  sync_round: 0,
  ...over,
});

describe('the session the runtime gives a connector call', () => {
  it("names our notification address for the job's account, the default account's without one", () => {
    expect(notificationUrlOf(job({ merchant_connector_id: 'mca_0123456789abcdefghij' }))).toBe(
      `${config.providerWebhookBaseUrl}/webhooks/mer_1/mca_0123456789abcdefghij`,
    );
    expect(notificationUrlOf(job())).toBe(`${config.providerWebhookBaseUrl}/webhooks/mer_1/${DEFAULT_ACCOUNT_ID}`);
  });
  it("carries the environment the manifest's settings resolve to", () => {
    expect(environmentOf(serviceTest.manifest)).toEqual({
      base_url: connectorSetting(serviceTest.manifest.settings.base_url),
      sandbox_url: config.sandboxUrl,
      settings: {},
    });
    const call = callFor(serviceTest, job({ merchant_connector_id: 'mca_0123456789abcdefghij' }), { auth_type: 'HeaderKey', api_key: 'k' });
    expect(call.baseUrl).toBe(connectorSetting(serviceTest.manifest.settings.base_url));
    expect((call.request.body as { webhook_url: string }).webhook_url).toBe(`${config.providerWebhookBaseUrl}/webhooks/mer_1/mca_0123456789abcdefghij`);
  });
});
