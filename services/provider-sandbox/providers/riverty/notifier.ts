// Riverty's notifications as the sandbox sends them: {Header: {MessageId, MessageType, Timestamp}, Body: {...}} POSTed
// to the order's webhookUrl, signed in `x-riverty-signature` (lowercase hex HMAC-SHA256 of the exact body; Riverty
// documents no signature: UNVERIFIED), retried like service_test's (../../notifier.ts: the same delays and attempts).
import { createHmac, randomUUID } from 'node:crypto';
import { log } from '../../../../lib/log.ts';
import { retryDelay } from '../../notifier.ts';

export const RIVERTY_SIGNATURE_HEADER = 'x-riverty-signature';
const ATTEMPT_TIMEOUT_MS = 10_000;

export type RivertyMessageType = 'CustomerAuthenticationCompleted' | 'RiskCheckCompleted';

export interface RivertyDelivery {
  id: string;
  type: RivertyMessageType;
  url: string;
  object_id: string;
  created_at: string;
  attempts: number;
  delivered: boolean;
  last_status: number | null;
  last_error: string | null;
  body: unknown;
}

export const signRiverty = (rawBody: string, secret: string) => createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');

export class RivertyNotifier {
  readonly deliveries: RivertyDelivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private generation = 0;
  private readonly opts: { secret: string; firstRetryMs: number };
  constructor(opts: { secret: string; firstRetryMs: number }) {
    this.opts = opts;
  }

  /** Sends the message about order `orderNumber` to `url` (none: nothing sent). `at` is the order's updated_at. */
  send(url: string | null | undefined, type: RivertyMessageType, orderNumber: string, body: Record<string, unknown>, at: string): void {
    if (!url) return;
    const message = { Header: { MessageId: randomUUID(), MessageType: type, Timestamp: at }, Body: body };
    const raw = JSON.stringify(message);
    const d: RivertyDelivery = {
      id: message.Header.MessageId, type, url, object_id: orderNumber, created_at: new Date().toISOString(),
      attempts: 0, delivered: false, last_status: null, last_error: null, body: message,
    };
    this.deliveries.push(d);
    if (this.deliveries.length > 10_000) this.deliveries.splice(0, 1_000);
    void this.attempt(d, raw);
  }

  private async attempt(d: RivertyDelivery, raw: string): Promise<void> {
    const generation = this.generation;
    d.attempts += 1;
    try {
      const res = await fetch(d.url, {
        method: 'POST', body: raw, signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        headers: { 'content-type': 'application/json', [RIVERTY_SIGNATURE_HEADER]: signRiverty(raw, this.opts.secret) },
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
    const wait = retryDelay(d.attempts + 1, this.opts.firstRetryMs);
    if (wait === undefined) {
      log.warn('riverty notification given up', { id: d.id, attempts: d.attempts, last_status: d.last_status });
      return;
    }
    const t = setTimeout(() => {
      this.timers.delete(t);
      void this.attempt(d, raw);
    }, wait);
    t.unref();
    this.timers.add(t);
  }

  reset(): void {
    this.generation += 1;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.deliveries.length = 0;
  }
}
