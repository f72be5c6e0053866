// Mondu's webhooks as the sandbox sends them: registered per API token and topic (POST /api/v1/webhooks {topic,
// address}; a topic is a group, `order`, or one event, `order/confirmed`), the JSON payload signed in
// X-MONDU-SIGNATURE (lowercase hex HMAC-SHA256 of the exact body with the account's webhook_secret), retried on a
// non-2xx answer or a network error with the sandbox's backoff (../../notifier.ts retryDelay).
import { createHmac, randomBytes } from 'node:crypto';
import { log } from '../../../../lib/log.ts';
import { retryDelay } from '../../notifier.ts';

export const SIGNATURE_HEADER = 'X-MONDU-SIGNATURE';
const ATTEMPT_TIMEOUT_MS = 10_000;

export interface Registration { uuid: string; api_token: string; topic: string; address: string; created_at: string }
export interface MonduDelivery {
  id: string; topic: string; url: string; object_id: string; created_at: string; attempts: number; delivered: boolean;
  last_status: number | null; last_error: string | null; next_attempt_at: string | null; body: string;
}

export const signMondu = (body: string, secret: string) => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/** Whether a registration's topic covers an event: the group (`order`) or the event itself (`order/confirmed`). */
export const covers = (registered: string, topic: string) => registered === topic || topic.startsWith(`${registered}/`);

export class MonduWebhooks {
  readonly registrations = new Map<string, Registration>();
  readonly deliveries: MonduDelivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private generation = 0;
  private readonly secret: string;
  private readonly firstRetryMs: number;
  constructor(opts: { secret: string; firstRetryMs: number }) {
    this.secret = opts.secret;
    this.firstRetryMs = opts.firstRetryMs;
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
        id: `whk_${randomBytes(12).toString('hex')}`, topic: payload.topic, url: r.address, object_id: objectId, created_at: new Date().toISOString(),
        attempts: 0, delivered: false, last_status: null, last_error: null, next_attempt_at: null, body,
      };
      this.deliveries.push(d);
      if (this.deliveries.length > 10_000) this.deliveries.splice(0, 1_000);
      void this.attempt(d);
    }
  }

  private async attempt(d: MonduDelivery): Promise<void> {
    const generation = this.generation;
    d.attempts += 1;
    d.next_attempt_at = null;
    try {
      const res = await fetch(d.url, {
        method: 'POST', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signMondu(d.body, this.secret) }, body: d.body,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      d.last_status = res.status;
      d.last_error = null;
      d.delivered = res.status >= 200 && res.status < 300;
    } catch (err) {
      d.last_status = null;
      d.last_error = (err as Error).message;
    }
    if (d.delivered || generation !== this.generation) return;
    const wait = retryDelay(d.attempts + 1, this.firstRetryMs);
    if (wait === undefined) {
      log.warn('mondu webhook given up', { id: d.id, topic: d.topic, attempts: d.attempts, last_status: d.last_status });
      return;
    }
    d.next_attempt_at = new Date(Date.now() + wait).toISOString();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(d);
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }

  reset(): void {
    this.generation += 1;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.deliveries.length = 0;
    this.registrations.clear();
  }
}
