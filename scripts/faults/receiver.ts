// The merchant's webhook endpoint in the fault campaign: a real HTTP server that verifies each delivery's Standard
// Webhooks signature (webhook-id, webhook-timestamp, webhook-signature) and X-Webhook-Signature-512 with the profile's hash key and records what arrived, per merchant (the path names it).
// `down` makes it answer 503, as a merchant's server that is being deployed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { standardWebhookProblem, verifyWebhookSignature } from '../../lib/merchant-webhook-signature.ts';

export interface Received {
  merchant_id: string;
  event_id: string;
  event_type: string;
  object_id: string | null;
  verified: boolean;
  at: number;
}

export class Receiver {
  readonly received: Received[] = [];
  down = false;
  private readonly keys = new Map<string, string>();
  private readonly server: Server;
  readonly url: string;
  private constructor(server: Server, url: string) {
    this.server = server;
    this.url = url;
  }

  static async start(): Promise<Receiver> {
    let self: Receiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self!.handle(req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new Receiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** The address for one merchant, whose deliveries are checked with its profile's hash key. */
  endpointFor(merchantId: string, hashKey: string): string {
    this.keys.set(merchantId, hashKey);
    return `${this.url}/hooks/${merchantId}`;
  }

  private handle(path: string, headers: import('node:http').IncomingHttpHeaders, body: string, res: import('node:http').ServerResponse): void {
    if (this.down) return void res.writeHead(503).end('deploying');
    const merchantId = decodeURIComponent(path.split('/')[2] ?? '');
    const key = this.keys.get(merchantId);
    let payload: any = null;
    try {
      payload = JSON.parse(body);
    } catch {
      /* recorded as unverified below */
    }
    const o = payload?.content?.object ?? {};
    this.received.push({
      merchant_id: merchantId,
      event_id: payload?.event_id ?? '',
      event_type: payload?.event_type ?? '',
      object_id: o.refund_id ?? o.dispute_id ?? o.payment_id ?? null,
      verified: !!key && standardWebhookProblem(body, headers, key) === null && verifyWebhookSignature(body, headers['x-webhook-signature-512'], key),
      at: Date.now(),
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  }

  of(merchantId: string): Received[] {
    return this.received.filter((r) => r.merchant_id === merchantId);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
