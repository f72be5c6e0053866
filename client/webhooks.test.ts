// The client's webhook verifier against what the service sends: a real delivery by workers/webhooks/deliver.ts to a
// local server, and signatures made by lib/merchant-webhook-signature.ts (the tests may import the service's code; the
// client itself does not). A changed id, timestamp or body, another key, a timestamp more than 5 minutes away and a
// missing header are refused; one matching signature among several, or under one of several keys, is enough.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signStandardWebhook } from '../lib/merchant-webhook-signature.ts';
import { sendWebhook } from '../workers/webhooks/deliver.ts';
import { verifyWebhook, WebhookVerificationError, type WebhookProblem } from './webhooks.ts';

const hashKey = 'c3d4'.repeat(16);
const body = JSON.stringify({
  merchant_id: 'merchant_1',
  event_id: 'evt_1',
  event_type: 'payment_succeeded',
  content: { type: 'payment_details', object: { payment_id: 'pay_1', status: 'succeeded' } },
  timestamp: '2026-11-27T06:00:00.000Z',
});
const nowS = () => Math.floor(Date.now() / 1000);
const signed = (id: string, ts: number, raw = body, key = hashKey) => ({
  'webhook-id': id,
  'webhook-timestamp': String(ts),
  'webhook-signature': signStandardWebhook(id, ts, raw, key),
});
async function refusal(p: Promise<unknown>): Promise<WebhookProblem | 'accepted'> {
  try {
    await p;
    return 'accepted';
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.problem;
    throw err;
  }
}

let server: Server;
let url = '';
let received: { headers: IncomingHttpHeaders; raw: Buffer } | undefined;
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received = { headers: req.headers, raw: Buffer.concat(chunks) };
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}/webhooks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('verifyWebhook', () => {
  it("accepts a real delivery as the service sends it (raw bytes, Node's headers) and answers its event", async () => {
    const sent = await sendWebhook(url, body, hashKey, { timeoutMs: 5_000, allowPrivate: true, eventId: 'evt_1', eventType: 'payment_succeeded' });
    expect(sent.delivered).toBe(true);
    const event = await verifyWebhook(received!.raw, received!.headers, hashKey);
    expect(event.event_id).toBe('evt_1');
    expect(event.event_type).toBe('payment_succeeded');
    expect(event.content).toEqual({ type: 'payment_details', object: { payment_id: 'pay_1', status: 'succeeded' } });
    // The same delivery as a fetch Request would hand it over (a Headers object, the body as text).
    expect((await verifyWebhook(received!.raw.toString('utf8'), new Headers(sent.request.headers), hashKey)).event_id).toBe('evt_1');
  });

  it('refuses a changed id, timestamp or body, and another key', async () => {
    const ts = nowS();
    const ok = signed('evt_1', ts);
    expect(await refusal(verifyWebhook(body, ok, hashKey))).toBe('accepted');
    expect(await refusal(verifyWebhook(body, { ...ok, 'webhook-id': 'evt_2' }, hashKey))).toBe('no_matching_signature');
    expect(await refusal(verifyWebhook(body, { ...ok, 'webhook-timestamp': String(ts - 1) }, hashKey))).toBe('no_matching_signature');
    expect(await refusal(verifyWebhook(body.replace('pay_1', 'pay_2'), ok, hashKey))).toBe('no_matching_signature');
    expect(await refusal(verifyWebhook(body, ok, 'another key of the merchant'))).toBe('no_matching_signature');
  });

  it('refuses a timestamp more than 5 minutes away, either way (a replayed delivery)', async () => {
    const now = nowS();
    expect(await refusal(verifyWebhook(body, signed('evt_1', now - 4 * 60), hashKey))).toBe('accepted');
    expect(await refusal(verifyWebhook(body, signed('evt_1', now - 6 * 60), hashKey))).toBe('timestamp_too_old');
    expect(await refusal(verifyWebhook(body, signed('evt_1', now + 6 * 60), hashKey))).toBe('timestamp_too_new');
    expect(await refusal(verifyWebhook(body, signed('evt_1', now - 6 * 60), hashKey, { toleranceS: 10 * 60 }))).toBe('accepted');
    const at = new Date((now - 3600) * 1000);
    expect(await refusal(verifyWebhook(body, signed('evt_1', now - 3600), hashKey, { now: at }))).toBe('accepted');
  });

  it('refuses a delivery without its headers, with a timestamp that is not seconds, or a body that is not an event', async () => {
    const ok = signed('evt_1', nowS());
    expect(await refusal(verifyWebhook(body, { ...ok, 'webhook-signature': undefined }, hashKey))).toBe('missing_headers');
    expect(await refusal(verifyWebhook(body, { 'x-webhook-signature-512': 'ab' }, hashKey))).toBe('missing_headers');
    expect(await refusal(verifyWebhook(body, ok, ''))).toBe('missing_headers');
    expect(await refusal(verifyWebhook(body, { ...ok, 'webhook-timestamp': '1e9' }, hashKey))).toBe('invalid_timestamp');
    const notAnEvent = '{"hello":"world"}';
    expect(await refusal(verifyWebhook(notAnEvent, signed('evt_1', nowS(), notAnEvent), hashKey))).toBe('invalid_body');
  });

  it('accepts one matching signature among several (space-separated), and any of several keys while rotating', async () => {
    const ts = nowS();
    const ok = signed('evt_1', ts);
    const old = signStandardWebhook('evt_1', ts, body, 'the old key');
    expect(await refusal(verifyWebhook(body, { ...ok, 'webhook-signature': `${old} ${ok['webhook-signature']}` }, hashKey))).toBe('accepted');
    expect(await refusal(verifyWebhook(body, { ...ok, 'webhook-signature': `${old} v1,AAAA` }, hashKey))).toBe('no_matching_signature');
    expect(await refusal(verifyWebhook(body, signed('evt_1', ts, body, 'the old key'), ['the new key', 'the old key']))).toBe('accepted');
    expect(await refusal(verifyWebhook(body, ok, ['the new key', 'the old key']))).toBe('no_matching_signature');
  });
});
