// Mondu's webhooks as the sandbox sends them: registered per API token and topic (POST /api/v1/webhooks {topic,
// address}; a topic is a group, `order`, or one event, `order/confirmed`), the JSON payload signed in
// X-MONDU-SIGNATURE (lowercase hex HMAC-SHA256 of the exact body with the account's webhook_secret), retried on a
// non-2xx answer or a network error with the sandbox's backoff (../../notifier.ts retryDelay).
import { createHmac, randomBytes } from 'node:crypto';
import { keep, Retrier, type Attempts } from '../../notifier.ts';

export const SIGNATURE_HEADER = 'X-MONDU-SIGNATURE';

export interface Registration {
  uuid: string;
  api_token: string;
  topic: string;
  address: string;
  created_at: string;
}
export interface MonduDelivery extends Attempts {
  id: string;
  topic: string;
  url: string;
  object_id: string;
  created_at: string;
  body: string;
}

export const signMondu = (body: string, secret: string) => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/** Whether a registration's topic covers an event: the group (`order`) or the event itself (`order/confirmed`). */
export const covers = (registered: string, topic: string) => registered === topic || topic.startsWith(`${registered}/`);

export class MonduWebhooks {
  readonly registrations = new Map<string, Registration>();
  readonly deliveries: MonduDelivery[] = [];
  private readonly secret: string;
  private readonly retrier: Retrier;
  constructor(opts: { secret: string; firstRetryMs: number }) {
    this.secret = opts.secret;
    this.retrier = new Retrier(opts.firstRetryMs);
  }

  register(apiToken: string, topic: string, address: string): Registration {
    const r = { uuid: randomBytes(16).toString('hex'), api_token: apiToken, topic, address, created_at: new Date().toISOString() };
    this.registrations.set(r.uuid, r);
    return r;
  }

  /** Sends the payload to every address the token registered for its topic. */
  send(apiToken: string, payload: { topic: string } & Record<string, unknown>, objectId: string): void {
    const body = JSON.stringify(payload);
    for (const r of this.registrations.values()) {
      if (r.api_token !== apiToken || !covers(r.topic, payload.topic)) continue;
      const d: MonduDelivery = {
        id: `whk_${randomBytes(12).toString('hex')}`,
        topic: payload.topic,
        url: r.address,
        object_id: objectId,
        created_at: new Date().toISOString(),
        attempts: 0,
        delivered: false,
        last_status: null,
        last_error: null,
        next_attempt_at: null,
        body,
      };
      keep(this.deliveries, d);
      this.retrier.post(d, d.url, body, { [SIGNATURE_HEADER]: signMondu(body, this.secret) }, { provider: 'mondu', id: d.id, topic: d.topic });
    }
  }

  reset(): void {
    this.retrier.reset();
    this.deliveries.length = 0;
    this.registrations.clear();
  }
}
