// One delivery attempt against a real local HTTP server: the connect-time SSRF check (an IP literal is refused before
// any connection, a name connects only to its vetted address) and the Standard Webhooks headers it sends.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { standardWebhookSecret } from '../../lib/merchant-webhook-signature.ts';
import { sendWebhook } from './deliver.ts';

const got: { headers: IncomingHttpHeaders; body: string }[] = [];
let connections = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(204).end();
  });
});
server.on('connection', () => connections++);
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const opts = (allowPrivate: boolean) => ({ timeoutMs: 2_000, allowPrivate, eventId: 'evt_1', eventType: 'payment_succeeded' });

describe('sendWebhook', () => {
  it('refuses internal IP literals at connect time without connecting (each literal of issue 19 item 6)', async () => {
    for (const host of ['[::127.0.0.1]', '[::ffff:0:7f00:1]', '[64:ff9b:1::7f00:1]', '[fec0::1]', '2130706433', '0x7f.1', '127.1', '[::ffff:127.0.0.1]']) {
      const before = connections;
      const r = await sendWebhook(`http://${host}:${port}/hooks`, '{}', 'k'.repeat(32), opts(false));
      expect(r.delivered, host).toBe(false);
      expect(r.error, host).toMatch(/not allowed|EWEBHOOKPRIVATE/);
      expect(connections, host).toBe(before);
    }
  });
  it('with WEBHOOK_ALLOW_PRIVATE_URLS a loopback name is delivered (the dev/test escape hatch)', async () => {
    const ok = await sendWebhook(`http://localhost:${port}/hooks`, '{"a":1}', 'k'.repeat(32), opts(true));
    expect(ok.delivered, ok.error ?? '').toBe(true);
  });
  it('signs as Standard Webhooks: the standardwebhooks package verifies what arrives; the id is the event id', async () => {
    const hashKey = 'f'.repeat(64);
    const body = '{"event_id":"evt_1","event_type":"payment_succeeded"}';
    const r = await sendWebhook(`http://127.0.0.1:${port}/hooks`, body, hashKey, opts(true));
    expect(r.delivered).toBe(true);
    const last = got.at(-1)!;
    expect(last.body).toBe(body);
    expect(last.headers['webhook-id']).toBe('evt_1');
    expect(Math.abs(Number(last.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(last.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(last.headers['x-webhook-signature-512']).toMatch(/^[0-9a-f]{128}$/);
    const wh = new Webhook(standardWebhookSecret(hashKey));
    const h = {
      'webhook-id': String(last.headers['webhook-id']),
      'webhook-timestamp': String(last.headers['webhook-timestamp']),
      'webhook-signature': String(last.headers['webhook-signature']),
    };
    expect(wh.verify(last.body, h)).toEqual(JSON.parse(body));
    expect(() => new Webhook(standardWebhookSecret('another key of the merchant')).verify(last.body, h)).toThrow(/signature/);
  });
});
