// The end-to-end matrix over all thirteen connectors (twelve providers and service_test), through the real processes,
// driven by each manifest's capability data: every cell either works, or is refused with our 400 before anything
// reaches the provider's imitation. Each connector gets a merchant with one account (the manifest's
// sandbox_account_details) and the shared BNPL customer profile, moved to a country and currency the connector serves.
// The provider-specific cells (reviews decided by notification, 5xx then success, the provider's own validation and
// codes) are in test/connectors/<name>.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsNeeded, valueAt } from '../domain/capabilities.ts';
import type { ConnectorName } from '../lib/schemas/common.ts';
import type { Manifest } from '../workers/connectors/manifest.ts';
import { IMPLEMENTED, MANIFESTS } from '../workers/connectors/manifests.ts';
import { bnplPayment, merchantCalls, merchantWithAccount, submitForm, type ConnectorMerchant } from './support/connectors.ts';
import { sleep, Stack } from './support/stack.ts';

let stack: Stack;
const merchants = new Map<ConnectorName, ConnectorMerchant>();
beforeAll(async () => {
  stack = await Stack.start({ SYNC_DELAYS_MS: '300,300,500,1000,2000,3000,5000,10000' });
  for (const name of IMPLEMENTED) merchants.set(name, await merchantWithAccount(stack, name));
}, 120_000);
afterAll(async () => stack?.stop());

/** A billing address per country, for the connectors that do not lend in Germany. */
const PLACES: Record<string, { currency: string; address: Record<string, string> }> = {
  DE: { currency: 'EUR', address: { line1: 'Hauptstr. 12a', city: 'Berlin', zip: '10115', country: 'DE' } },
  SE: { currency: 'SEK', address: { line1: 'Storgatan 12', city: 'Stockholm', zip: '11122', country: 'SE' } },
  CZ: { currency: 'CZK', address: { line1: 'Vodičkova 12', city: 'Praha', zip: '11000', country: 'CZ' } },
};
function placeFor(m: Manifest) {
  const served = (c: string) => m.countries === 'any' || m.countries.includes(c as never);
  const country = ['DE', 'SE', 'CZ'].find((c) => served(c) && (m.currencies === 'any' || m.currencies.includes(PLACES[c]!.currency as never)));
  if (!country) throw new Error(`${m.name}: no test place for ${JSON.stringify(m.countries)}`);
  return PLACES[country]!;
}

/** The shared profile for this connector: its place, a consumer where it takes them, else a business. */
function body(m: Manifest, email: string, extra: Record<string, unknown> = {}) {
  const place = placeFor(m);
  const p = bnplPayment(m.name, email, { buyer: m.customers.includes('B2C') ? 'consumer' : 'business' });
  return { ...p, currency: place.currency, billing: { ...p.billing, address: { ...p.billing.address, ...place.address } }, ...extra };
}

/** The customer at the provider's page: goes on (its first form that does not turn back), or takes the first form at all. */
async function completeCustomerStep(url: string, how: 'approve' | 'any', first: boolean) {
  const res = await submitForm(url, (a) => how === 'any' || !/(deny|cancel|leave|fail|reject)/.test(a));
  if (first) expect(res.status).toBeLessThan(400);
}

/**
 * Waits for the payment to leave processing and the customer's step, and returns it. The customer acts on the
 * provider's page once, and again if the payment still waits for them a while later (a page that answered a decline
 * and now offers only the way back, say); a page with nothing left to do is left alone.
 */
async function settle(m: ConnectorMerchant, p: any, how: 'approve' | 'any' = 'approve') {
  let steps = 0;
  let lastStep = 0;
  const deadline = Date.now() + 45_000;
  for (;;) {
    const cur = (await stack.api('GET', `/payments/${p.payment_id}`, undefined, m.api_key)).body;
    if (!['processing', 'requires_customer_action'].includes(cur.status)) return cur;
    if (cur.status === 'requires_customer_action' && cur.next_action?.redirect_to_url && steps < 3 && Date.now() - lastStep > 3_000) {
      const page = await fetch(cur.next_action.redirect_to_url);
      const html = page.ok ? await page.text() : '';
      if (steps === 0 || /<form/.test(html)) await completeCustomerStep(cur.next_action.redirect_to_url, steps === 0 ? how : 'any', steps === 0);
      steps += 1;
      lastStep = Date.now();
    }
    if (Date.now() > deadline) throw new Error(`payment ${p.payment_id} still ${cur.status}`);
    await sleep(250);
  }
}

/** A copy of a request body without the value at one dotted path. */
function without(b: Record<string, unknown>, path: string): Record<string, unknown> {
  const copy = structuredClone(b);
  const keys = path.split('.');
  const parent = keys.length === 1 ? copy : valueAt(copy, keys.slice(0, -1).join('.'));
  if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[keys.at(-1)!];
  return copy;
}

/** A request body holding only the values at these dotted paths, taken from `from`. */
function only(from: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split('.');
    let o = out;
    for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
    o[keys.at(-1)!] = valueAt(from, path);
  }
  return out;
}

const CAPTURE_METHODS = ['automatic', 'manual', 'manual_multiple'] as const;

const providerCalls = async (name: ConnectorName) => (await stack.sandboxCalls({ provider: name })).filter((c) => c.method !== 'GET').length;

describe.each(IMPLEMENTED.map((name) => [name, MANIFESTS[name]!] as const))('%s', (name, m) => {
  const M = () => merchants.get(name)!;
  const calls = () => merchantCalls(stack, M().api_key);
  const authorized = async (email = 'erika@example.com') => {
    const p = await settle(M(), await calls().pay(body(m, email)));
    expect(p, JSON.stringify(p).slice(0, 600)).toMatchObject({ status: 'requires_capture', connector: name });
    return p;
  };
  /** Our 400 naming `param`, and not one call reached the imitation. */
  const refusedBeforeQueueing = async (send: () => Promise<{ status: number; body: any }>, param: string) => {
    const before = await providerCalls(name);
    const r = await send();
    expect(r.status, `${param}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(400);
    expect(r.body.error.param).toBe(param);
    expect(await providerCalls(name)).toBe(before);
  };

  it('manual capture of the whole amount -> succeeded', async () => {
    const p = await authorized();
    expect((await calls().capture(p.payment_id)).status).toBe(200);
    expect(await settle(M(), p)).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
  });

  it(`automatic capture: ${m.capture_methods.includes('automatic') ? 'succeeded' : 'refused before queueing'}`, async () => {
    if (!m.capture_methods.includes('automatic')) {
      return refusedBeforeQueueing(
        () => stack.api('POST', '/payments', body(m, 'erika@example.com', { capture_method: 'automatic' }), M().api_key),
        'capture_method',
      );
    }
    const p = await settle(M(), await calls().pay(body(m, 'erika@example.com', { capture_method: 'automatic' })));
    expect(p).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
  });

  // Issue 19 item 3: every capture method either works end to end or is refused up front naming why. The fields
  // each needs come from the manifest (fieldsNeeded): the shared profile supplies them all (the cells above and
  // below work with it), and each one missing is refused with our 400 naming it, with no call at the imitation.
  it.each(CAPTURE_METHODS)('capture_method %s: every field it needs, missing, is refused naming it before the provider', async (cm) => {
    const full = body(m, 'erika@example.com', { capture_method: cm });
    if (!m.capture_methods.includes(cm)) {
      return refusedBeforeQueueing(() => stack.api('POST', '/payments', full, M().api_key), 'capture_method');
    }
    for (const path of fieldsNeeded(m, cm).confirm) {
      expect(valueAt(full, path), `the profile supplies ${path}`).toBeDefined();
      // A new customer each time: a customer known by id fills what the request leaves out of it.
      const fresh = body(m, 'erika@example.com', { capture_method: cm });
      await refusedBeforeQueueing(() => stack.api('POST', '/payments', without(fresh, path), M().api_key), path);
    }
    // The field found missing by issue 19 (spec 2.5 metadata.invoice_url): where the manifest does not ask for it,
    // an automatic capture without it works end to end (on main, billie and mondu stayed requires_capture).
    if (cm === 'automatic' && !fieldsNeeded(m, cm).confirm.includes('metadata.invoice_url')) {
      const p = await settle(M(), await calls().pay(without(body(m, 'erika@example.com', { capture_method: cm }), 'metadata.invoice_url')));
      expect(p, JSON.stringify(p.captures)).toMatchObject({ status: 'succeeded', amount_received: 11_900 });
    }
  });

  it.each(['manual', 'manual_multiple'] as const)(
    'capture_method %s: each capture gets what it needs from its request or the payment, or is refused naming it',
    async (cm) => {
      if (!m.capture_methods.includes(cm)) return;
      const needed = fieldsNeeded(m, cm).capture;
      if (cm === 'manual' && needed.length === 0) return; // 'manual capture of the whole amount' is this cell
      const full = body(m, 'erika@example.com', { capture_method: cm });
      const p = await settle(M(), await calls().pay(needed.reduce(without, full)));
      expect(p, JSON.stringify(p).slice(0, 600)).toMatchObject({ status: 'requires_capture', connector: name });
      for (const path of needed) await refusedBeforeQueueing(() => calls().capture(p.payment_id), path);
      // Given in the capture request itself (spec 4.3 capture metadata): the capture works; manual_multiple in two,
      // one lamp then the rest (whole order lines: Svea delivers rows, and fails an amount no rows add up to).
      const given = only(full, needed);
      const parts = cm === 'manual_multiple' && m.partial_capture && m.multiple_capture ? [4_760, 7_140] : [11_900];
      let received = 0;
      for (const [i, amount] of parts.entries()) {
        const r = await calls().capture(p.payment_id, { ...given, amount_to_capture: amount });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        received += amount;
        const s = await settle(M(), p);
        expect(s, JSON.stringify(s.captures)).toMatchObject({
          status: i === parts.length - 1 ? 'succeeded' : 'partially_captured_and_capturable',
          amount_received: received,
        });
      }
    },
  );

  it(`partial capture: ${m.partial_capture ? 'partially captured' : 'refused before queueing'}`, async () => {
    const p = await authorized();
    if (!m.partial_capture) return refusedBeforeQueueing(() => calls().capture(p.payment_id, { amount_to_capture: 5_950 }), 'amount_to_capture');
    expect((await calls().capture(p.payment_id, { amount_to_capture: 5_950 })).status).toBe(200);
    expect(await settle(M(), p)).toMatchObject({ status: 'partially_captured', amount_received: 5_950 });
  });

  it('void -> cancelled', async () => {
    const p = await authorized();
    expect((await calls().cancel(p.payment_id)).status).toBe(200);
    expect(await settle(M(), p)).toMatchObject({ status: 'cancelled' });
  });

  it(`partial refund: ${m.flows.includes('refund') ? 'succeeded' : 'refused'}`, async () => {
    const p = await authorized();
    await calls().capture(p.payment_id);
    await settle(M(), p);
    const r = await calls().refund(p.payment_id, 2_000);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await calls().refundSettled(r.body.refund_id, 45_000)).toMatchObject({ status: 'succeeded', amount: 2_000 });
  });

  it("decline (+decline) -> failed with the provider's code", async () => {
    const p = await settle(M(), await calls().pay(body(m, 'erika+decline@example.com')), 'any');
    expect(p).toMatchObject({ status: 'failed', error_code: expect.any(String) });
  });

  it('credentials without what the connector takes are refused when the account is saved, naming the field', async () => {
    const r = await stack.api(
      'POST',
      `/account/${M().merchant_id}/connectors`,
      { connector_name: name, connector_account_details: { auth_type: m.auth_type } },
      stack.adminKey,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.param).toBe('connector_account_details.api_key');
  });

  it("wrong credentials -> failed with the provider's code", async () => {
    const key = m.sandbox_account_details!.api_key;
    const bad = await merchantWithAccount(stack, name, {
      ...m.sandbox_account_details,
      api_key: /^\d+$/.test(key) ? '9'.repeat(key.length) : 'not-the-right-key',
    });
    const p = await settle(bad, await merchantCalls(stack, bad.api_key).pay(body(m, 'erika@example.com')));
    expect(p).toMatchObject({ status: 'failed', error_code: expect.any(String) });
  });

  it(`a currency it does not take: ${m.currencies === 'any' ? 'any is taken' : 'refused before queueing'}`, async () => {
    if (m.currencies === 'any') return;
    await refusedBeforeQueueing(() => stack.api('POST', '/payments', body(m, 'erika@example.com', { currency: 'USD' }), M().api_key), 'currency');
  });
});
