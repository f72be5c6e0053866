// Fair merchant webhooks (issue 19 item 7): one merchant's endpoint accepts connections and never answers, with 30
// events for it; another merchant's healthy endpoint still gets each of its events within a second of the change
// (p99 of receive time minus the event's timestamp). The stack's WEBHOOK_TIMEOUT_MS (3 s) and WEBHOOK_CONCURRENCY (20)
// are as configured for every stack test: without the per-endpoint cap the hanging endpoint takes all 20 slots.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, sleep } from './support/stack.ts';

let stack: Stack;
let slow: { merchant_id: string; api_key: string };
let healthy: { merchant_id: string; api_key: string };
let hanging: Server;
let fine: Server;
const open = new Set<Socket>();
let maxOpen = 0;
let hangingRequests = 0;
const arrived: { event_id: string; event_type: string; payment_id: string; latencyMs: number }[] = [];

const listen = async (s: Server) => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/hooks`;
};
async function setUrl(merchantId: string, url: string): Promise<void> {
  const profiles = await stack.api('GET', `/account/${merchantId}/business_profile`, undefined, stack.adminKey);
  const r = await stack.api(
    'POST',
    `/account/${merchantId}/business_profile/${profiles.body[0].profile_id}`,
    { webhook_details: { webhook_url: url } },
    stack.adminKey,
  );
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}
const pay = (apiKey: string) =>
  stack.api(
    'POST',
    '/payments',
    {
      amount: 1_000,
      currency: 'EUR',
      confirm: true,
      payment_method: 'pay_later',
      payment_method_type: 'invoice',
      customer: { id: 'cus_fair', email: 'fair@example.com' },
    },
    apiKey,
  );

beforeAll(async () => {
  const s = await Stack.withMerchant();
  stack = s.stack;
  slow = { merchant_id: s.merchant_id, api_key: s.api_key };
  healthy = await stack.merchant();
  // Accepts, reads the request, never answers.
  hanging = createServer(() => {
    hangingRequests++;
  });
  hanging.on('connection', (sock) => {
    open.add(sock);
    maxOpen = Math.max(maxOpen, open.size);
    sock.on('close', () => open.delete(sock));
  });
  fine = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrived.push({
        event_id: body.event_id,
        event_type: body.event_type,
        payment_id: body.content.object.payment_id,
        latencyMs: Date.now() - Date.parse(body.timestamp),
      });
      res.writeHead(204).end();
    });
  });
  await setUrl(slow.merchant_id, await listen(hanging));
  await setUrl(healthy.merchant_id, await listen(fine));
});
afterAll(async () => {
  hanging?.closeAllConnections();
  fine?.closeAllConnections();
  await Promise.all([hanging, fine].map((s) => s && new Promise((r) => s.close(r))));
  await stack?.stop();
});

describe('webhooks are fair per endpoint', () => {
  it("a hanging endpoint with 30 events does not delay another merchant's events (p99 < 1 s), nor holds more than its cap", async () => {
    for (let i = 0; i < 3; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => pay(slow.api_key)));
      for (const b of batch) expect(b.status, JSON.stringify(b.body)).toBe(200);
    }
    // The hanging endpoint is being called and the queue holds its events.
    const deadline = Date.now() + 30_000;
    while (hangingRequests < 4 && Date.now() < deadline) await sleep(100);
    expect(hangingRequests).toBeGreaterThanOrEqual(4);
    await sleep(1_000);

    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await pay(healthy.api_key);
      expect(r.body.status, JSON.stringify(r.body)).toBe('succeeded');
      ids.push(r.body.payment_id);
      await sleep(400);
    }
    const until = Date.now() + 30_000;
    while (!ids.every((id) => arrived.some((a) => a.payment_id === id && a.event_type === 'payment_succeeded')) && Date.now() < until) await sleep(100);
    const mine = arrived.filter((a) => ids.includes(a.payment_id));
    expect(mine.length).toBeGreaterThanOrEqual(ids.length * 2);
    const latencies = mine.map((a) => a.latencyMs).sort((a, b) => a - b);
    const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1]!;
    expect(p99, `healthy endpoint latencies (ms): ${mine.map((a) => `${a.event_type} ${a.latencyMs}`).join(', ')}`).toBeLessThan(1_000);
    // The hanging endpoint never had more attempts in flight than the per-endpoint cap (4).
    expect(maxOpen).toBeLessThanOrEqual(4);

    // Its events stay pending (waiting, paused), none given up while the endpoint is paused.
    const events = await stack.api('GET', `/events/${slow.merchant_id}?limit=100`, undefined, slow.api_key);
    expect(events.body.data.length).toBeGreaterThanOrEqual(30);
    expect(events.body.data.filter((e: any) => e.delivery_status === 'failed')).toEqual([]);
  });
});
