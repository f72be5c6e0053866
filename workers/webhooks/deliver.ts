// One delivery attempt of a merchant webhook: POST the exact body, signed, to the profile's URL, within
// WEBHOOK_TIMEOUT_MS. The host's addresses are resolved and vetted first (every one public unicast: lib/webhook-url.ts) and
// the connection goes only to those (a pinned lookup), so a name cannot resolve differently between check and connect.
// Never throws: the answer (or why there was none) is what the attempt records.
import http from 'node:http';
import https from 'node:https';
import { hostOf, pinnedLookup, resolveWebhookHost, webhookUrlProblem } from '../../lib/webhook-url.ts';
import { signStandardWebhook, signWebhook } from '../../lib/merchant-webhook-signature.ts';
import type { AttemptDoc } from '../../adapters/event-store.ts';

export const SIGNATURE_HEADER = 'x-webhook-signature-512';
const EXCERPT = 2048;
const MAX_READ = 64 * 1024;

/** What one attempt did, as its attempt record keeps it (adapters/event-store.ts AttemptDoc). */
export type SendResult = Omit<AttemptDoc, 'attempt_id' | 'event_id' | 'merchant_id' | 'trigger' | 'url'>;

export async function sendWebhook(
  url: string,
  body: string,
  hashKey: string,
  opts: { timeoutMs: number; allowPrivate: boolean; eventId: string; eventType: string },
): Promise<SendResult> {
  const started = Date.now();
  const timestamp = Math.floor(started / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'bnpl-payment-service-webhooks/1',
    // Standard Webhooks (replay-safe: the id and this attempt's time are signed with the body), then the
    // Hyperswitch-compatible body-only signature for receivers built for it.
    'webhook-id': opts.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandardWebhook(opts.eventId, timestamp, body, hashKey),
    [SIGNATURE_HEADER]: signWebhook(body, hashKey),
    'x-webhook-event-id': opts.eventId,
    'x-webhook-event-type': opts.eventType,
  };
  const done = (r: Pick<SendResult, 'response' | 'error'>): SendResult => ({
    request: { headers, body },
    ...r,
    delivered: !!r.response && r.response.status_code >= 200 && r.response.status_code < 300,
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
  });
  const problem = webhookUrlProblem(url, opts.allowPrivate);
  if (problem) return done({ response: null, error: `webhook URL not allowed: ${problem}` });
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  let vetted: Awaited<ReturnType<typeof resolveWebhookHost>>;
  try {
    vetted = await resolveWebhookHost(hostOf(target), opts.allowPrivate);
  } catch (err) {
    const e: NodeJS.ErrnoException = err instanceof Error ? err : new Error(String(err));
    return done({ response: null, error: e.code ? `${e.code}: ${e.message}` : e.message });
  }
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: Pick<SendResult, 'response' | 'error'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = lib.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(vetted) as never,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_READ) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          finish({
            response: {
              status_code: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT),
              headers: Object.fromEntries(
                Object.entries(res.headers)
                  .filter(([k]) => k === 'content-type' || k === 'content-length')
                  .map(([k, v]) => [k, String(v)]),
              ),
            },
            error: null,
          }),
        );
        res.on('error', (err) => finish({ response: null, error: `response broke off: ${err.message}` }));
      },
    );
    const timer = setTimeout(() => {
      finish({ response: null, error: `no answer within ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ response: null, error: err.code ? `${err.code}: ${err.message}` : err.message }));
    req.end(body);
  });
}
