// `npm run webhook-receiver`: a tiny local receiver for trying merchant webhooks. It prints every event it receives
// and whether it verifies as a Standard Webhooks delivery (webhook-id, webhook-timestamp, webhook-signature; the
// `standardwebhooks` package, as README "Merchant webhooks" shows) under the business profile's payment_response_hash_key:
// a tampered body, id or timestamp, or a delivery older than 5 minutes, is answered 401.
//   WEBHOOK_HASH_KEY=<payment_response_hash_key> WEBHOOK_RECEIVER_PORT=4242 npm run webhook-receiver
// Then set the profile's webhook_details.webhook_url to http://127.0.0.1:4242/webhooks and start the service with
// WEBHOOK_ALLOW_PRIVATE_URLS=true (a loopback URL is refused otherwise).
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { standardWebhookSecret } from '../lib/merchant-webhook-signature.ts';

const port = Number(process.env.WEBHOOK_RECEIVER_PORT || 4242);
const hashKey = process.env.WEBHOOK_HASH_KEY || '';
if (!hashKey) console.error('[receiver] WEBHOOK_HASH_KEY is not set: every signature will show as invalid');
const verifier = new Webhook(standardWebhookSecret(hashKey || 'unset'));
const seen = new Set<string>();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    let why: string | null = null;
    try {
      verifier.verify(raw.toString('utf8'), {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      });
    } catch (err) {
      why = err instanceof Error ? err.message : String(err);
    }
    if (why || !hashKey) {
      console.log(`[receiver] ${req.method} ${req.url}: refused (${why ?? 'no WEBHOOK_HASH_KEY'}); answered 401`);
      res.writeHead(401).end('invalid signature');
      return;
    }
    let event: { event_id?: string; event_type?: string; timestamp?: string; content?: { type?: string; object?: Record<string, unknown> } } = {};
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      /* answered below */
    }
    const o = event.content?.object ?? {};
    const repeat = event.event_id && seen.has(event.event_id) ? ' (repeat: already seen, deduplicated by event_id)' : '';
    if (event.event_id) seen.add(event.event_id);
    console.log(
      `[receiver] verified ${event.event_type} ${event.event_id} at ${event.timestamp}: ${event.content?.type} ${String(o.payment_id ?? '')} ${String(o.refund_id ?? o.dispute_id ?? '')} status=${String(o.status ?? o.dispute_status ?? '')}${repeat}`,
    );
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
});
server.listen(port, '127.0.0.1', () => console.log(`[receiver] listening on http://127.0.0.1:${port}/ (any path); Ctrl-C stops`));
process.on('SIGINT', () => server.close(() => process.exit(0)));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
