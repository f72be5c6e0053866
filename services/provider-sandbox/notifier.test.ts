import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, Notifier, SIGNATURE_HEADER, notificationEvent, retryDelay, retryFirstMs, signBody } from './notifier.ts';

describe('signBody', () => {
  it('is the lowercase hex HMAC-SHA512 of the exact body (RFC 4231-style vector)', () => {
    expect(signBody('The quick brown fox jumps over the lazy dog', 'key')).toBe(
      'b42af09057bac1e2d41708e48a902e09b5ff7f12ab428a4fe86653c73dd248fb82f948a549f7b791a5b41915ee4d1ec3935357e4e2317250d0372afa2ebeeb3a',
    );
  });

  it('signs with the sandbox secret as openssl does, and any byte changed changes it', () => {
    const body = '{"id":"evt_000000000000000000000000","type":"refund.updated"}';
    const sig = signBody(body, 'whsec_sandbox_service_test');
    expect(sig).toBe('13937890f5fa3487897417c00d80e28cb0cd054cf9b9b21d251d800bab0fb4a0e0c4ff6d817caffa6025bdc55e50bbe74597ae345d0f3ae42bc7b9b156645c55');
    expect(signBody(body.replace('refund', 'Refund'), 'whsec_sandbox_service_test')).not.toBe(sig);
    expect(signBody(body, 'another secret')).not.toBe(sig);
  });
});

describe('notificationEvent', () => {
  it('carries an evt_ id of 24 hex, the type, the time and the object', () => {
    const e = notificationEvent('dispute.created', { id: 'dp_1' }, new Date('2030-01-02T03:04:05.000Z'));
    expect(e.id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(e).toMatchObject({ type: 'dispute.created', created_at: '2030-01-02T03:04:05.000Z', data: { id: 'dp_1' } });
  });
});

describe('retryDelay', () => {
  it('waits the first delay, then doubles, for at most 8 attempts', () => {
    expect([2, 3, 4, 5, 6, 7, 8].map((a) => retryDelay(a, 1000))).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 64000]);
    expect(retryDelay(MAX_ATTEMPTS + 1, 1000)).toBeUndefined();
    expect(retryDelay(1, 1000)).toBeUndefined();
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('reads SANDBOX_WEBHOOK_RETRY_MS, 1000 by default, and refuses a bad value naming it', () => {
    expect(retryFirstMs({})).toBe(1000);
    expect(retryFirstMs({ SANDBOX_WEBHOOK_RETRY_MS: '' })).toBe(1000);
    expect(retryFirstMs({ SANDBOX_WEBHOOK_RETRY_MS: '50' })).toBe(50);
    expect(() => retryFirstMs({ SANDBOX_WEBHOOK_RETRY_MS: 'soon' })).toThrow(/SANDBOX_WEBHOOK_RETRY_MS/);
  });
});

describe('Notifier (against a local HTTP server)', () => {
  const closers: (() => void)[] = [];
  afterEach(() => {
    for (const c of closers.splice(0)) c();
  });

  async function receiver(statuses: number[]) {
    const received: { body: string; signature: string | undefined }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ body, signature: req.headers[SIGNATURE_HEADER] as string | undefined });
        res.statusCode = statuses[received.length - 1] ?? 200;
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => server.close());
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
  }
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('retries a non-2xx with the same signed event until a 2xx', async () => {
    const { url, received } = await receiver([500, 503, 200]);
    const n = new Notifier({ firstRetryMs: 10 });
    const d = n.send({ webhook_url: url, webhook_secret: 's3cret' }, 'payment.updated', 'stp_1', { id: 'stp_1', status: 'authorized' })!;
    await until(() => d.delivered);
    expect(d).toMatchObject({ attempts: 3, delivered: true, last_status: 200, object_id: 'stp_1', url });
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    for (const r of received) expect(r.signature).toBe(signBody(r.body, 's3cret'));
    expect(JSON.parse(received[0]!.body)).toMatchObject({ id: d.id, type: 'payment.updated', data: { id: 'stp_1', status: 'authorized' } });
  });

  it('retries a network error; sends nothing without a url; reset cancels the retries', async () => {
    const n = new Notifier({ firstRetryMs: 20 });
    expect(n.send({ webhook_url: null, webhook_secret: 's' }, 'refund.updated', 'str_1', {})).toBeUndefined();
    // Nothing the receiver could verify is sent either.
    expect(n.send({ webhook_url: 'http://127.0.0.1:1/nobody', webhook_secret: null }, 'refund.updated', 'str_1', {})).toBeUndefined();
    expect(n.deliveries).toHaveLength(0);
    const d = n.send({ webhook_url: 'http://127.0.0.1:1/nobody', webhook_secret: 's' }, 'refund.updated', 'str_1', {})!;
    await until(() => d.attempts >= 2);
    expect(d).toMatchObject({ delivered: false, last_status: null });
    expect(d.last_error).toBeTruthy();
    n.reset();
    const attempts = d.attempts;
    await new Promise((r) => setTimeout(r, 200));
    expect(d.attempts).toBe(attempts);
    expect(n.deliveries).toHaveLength(0);
  });
});
