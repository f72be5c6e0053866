// GET /feature_matrix (issue 12): public, generated from the connectors' manifests; in sandbox mode each entry holds
// the connector_account_details its imitation accepts, and a connector account made from it as is pays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFESTS } from '../workers/connectors/manifests.ts';
import { Stack } from './support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start();
});
afterAll(async () => stack?.stop());

describe('GET /feature_matrix', () => {
  it('lists every implemented connector with its capabilities, without a key', async () => {
    const r = await stack.api('GET', '/feature_matrix');
    expect(r.status).toBe(200);
    const names = Object.keys(MANIFESTS).sort();
    expect(r.body.connector_count).toBe(names.length);
    expect(r.body.connectors.map((c: any) => c.name)).toEqual(names);
    const st = r.body.connectors.find((c: any) => c.name === 'service_test');
    expect(st).toMatchObject({
      display_name: expect.any(String),
      capture_methods: ['automatic', 'manual', 'manual_multiple'],
      refunds: true,
      partial_refund: true,
      notifications: true,
      customer_types: ['B2B', 'B2C'],
      countries: 'any',
      currencies: 'any',
      auth_type: 'HeaderKey',
      amount_unit: 'minor',
      sandbox_account_details: { auth_type: 'HeaderKey', api_key: expect.any(String) },
      capture_fields: [],
      required_fields_by_capture_method: { automatic: { confirm: [], capture: [] }, manual: { confirm: [], capture: [] } },
    });
    // Every field each connector needs, per capture method: an invoice's URL for billie and mondu, due at confirm
    // for an automatic capture and at each capture for the manual ones (issue 19 item 3).
    for (const name of ['billie', 'mondu']) {
      const c = r.body.connectors.find((x: any) => x.name === name);
      expect(c.capture_fields).toEqual(['metadata.invoice_url']);
      expect(c.required_fields_by_capture_method.automatic).toEqual({ confirm: [...c.required_fields, 'metadata.invoice_url'], capture: [] });
      expect(c.required_fields_by_capture_method.manual).toEqual({ confirm: c.required_fields, capture: ['metadata.invoice_url'] });
      expect(c.required_fields_by_capture_method.manual_multiple).toEqual({ confirm: c.required_fields, capture: ['metadata.invoice_url'] });
    }
    // How much of each connector was checked against its provider's own material (the counts of its README, which
    // test/connectors.test.ts holds to the manifest): ours is 'own'; riverty traced (partial); openbank, whose provider
    // publishes little, a preview with what to confirm before going live (issue 21).
    const verification = (name: string) => r.body.connectors.find((x: any) => x.name === name).verification;
    expect(verification('service_test')).toEqual({ verified: 0, unverified: 0, level: 'own' });
    expect(verification('riverty')).toEqual(MANIFESTS.riverty!.verification);
    expect(verification('riverty')).toMatchObject({ verified: expect.any(Number), unverified: expect.any(Number), level: 'partial' });
    expect(verification('riverty').verified).toBeGreaterThan(0);
    expect(verification('riverty').go_live_checklist).toBeUndefined();
    expect(verification('openbank')).toEqual(MANIFESTS.openbank!.verification);
    expect(verification('openbank')).toMatchObject({ level: 'preview', go_live_checklist: expect.arrayContaining([expect.any(String)]) });
    for (const c of r.body.connectors) expect(['verified', 'partial', 'preview', 'own'], c.name).toContain(c.verification.level);
  });

  it("a connector account's answer says how far its connector was checked, and a preview's go-live checklist (issue 21)", async () => {
    const m = await stack.merchant();
    const create = (connector: string) =>
      stack.api(
        'POST',
        `/account/${m.merchant_id}/connectors`,
        { connector_name: connector, connector_account_details: MANIFESTS[connector as 'openbank']!.sandbox_account_details },
        stack.adminKey,
      );
    const openbank = await create('openbank');
    expect(openbank.status).toBe(200);
    const checklist = MANIFESTS.openbank!.verification.go_live_checklist!;
    expect(checklist.length).toBeGreaterThan(0);
    expect(openbank.body.connector_verification).toEqual({ ...MANIFESTS.openbank!.verification, go_live_checklist: checklist });
    const read = await stack.api('GET', `/account/${m.merchant_id}/connectors/${openbank.body.merchant_connector_id}`, undefined, stack.adminKey);
    expect(read.body.connector_verification).toMatchObject({ level: 'preview', go_live_checklist: checklist });
    const list = await stack.api('GET', `/account/${m.merchant_id}/connectors`, undefined, stack.adminKey);
    expect(list.body.find((a: any) => a.connector_name === 'openbank').connector_verification.level).toBe('preview');
    const riverty = await create('riverty');
    expect(riverty.body.connector_verification).toMatchObject({ level: 'partial', go_live_checklist: [] });
  });

  it('a connector account made from sandbox_account_details as is pays through that connector', async () => {
    const matrix = (await stack.api('GET', '/feature_matrix')).body;
    const m = await stack.merchant();
    for (const c of matrix.connectors) {
      const a = await stack.api(
        'POST',
        `/account/${m.merchant_id}/connectors`,
        { connector_name: c.name, connector_account_details: c.sandbox_account_details },
        stack.adminKey,
      );
      expect(a.status, `${c.name}: ${JSON.stringify(a.body)}`).toBe(200);
    }
    const p = await stack.api(
      'POST',
      '/payments',
      { amount: 1_000, currency: 'EUR', confirm: true, payment_method: 'pay_later', connector: ['service_test'] },
      m.api_key,
    );
    expect(p.body).toMatchObject({ status: 'succeeded', connector: 'service_test', merchant_connector_id: expect.stringMatching(/^mca_/) });
  });
});
