// Notifications a provider sends to the merchant (service_test's dialect): a JSON event POSTed to the payment's
// webhook_url, signed in `x-webhook-signature-512` (lowercase hex HMAC-SHA512 of the exact body, keyed with the
// webhook_secret the merchant gave with the payment: each connector account has its own), retried on a non-2xx
// answer or a network error with exponential backoff. Every delivery is kept for tests (GET /__sandbox/<provider>/notifications).
import { createHmac, randomBytes } from 'node:crypto';
import { log } from '../../lib/log.ts';

export const SIGNATURE_HEADER = 'x-webhook-signature-512';
export const MAX_ATTEMPTS = 8;
const ATTEMPT_TIMEOUT_MS = 10_000;

export type NotificationType = 'payment.updated' | 'refund.updated' | 'dispute.created' | 'dispute.updated';

export interface NotificationEvent<T = unknown> {
  id: string;
  type: NotificationType;
  created_at: string;
  data: T;
}

/** The signature header's value: lowercase hex HMAC-SHA512 of the exact raw body. */
export function signBody(rawBody: string, secret: string): string {
  return createHmac('sha512', secret).update(rawBody, 'utf8').digest('hex');
}

export function notificationEvent<T>(type: NotificationType, data: T, now = new Date()): NotificationEvent<T> {
  return { id: `evt_${randomBytes(12).toString('hex')}`, type, created_at: now.toISOString(), data };
}

/** The wait before attempt `attempt` (2..MAX_ATTEMPTS) after a failed one: firstMs, doubling; undefined: no more attempts. */
export function retryDelay(attempt: number, firstMs: number): number | undefined {
  if (attempt < 2 || attempt > MAX_ATTEMPTS) return undefined;
  return firstMs * 2 ** (attempt - 2);
}

/** SANDBOX_WEBHOOK_RETRY_MS (default 1000): read here, the sandbox being its only reader. */
export function retryFirstMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.SANDBOX_WEBHOOK_RETRY_MS;
  if (raw === undefined || raw === '') return 1000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`SANDBOX_WEBHOOK_RETRY_MS must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** What a delivery records of its attempts (every provider's delivery log has these). */
export interface Attempts {
  attempts: number;
  delivered: boolean;
  /** The HTTP status of the last attempt; null before the first answer or after a network error. */
  last_status: number | null;
  last_error: string | null;
  /** When the next attempt runs; null when delivered or given up. */
  next_attempt_at: string | null;
}

/**
 * POSTs a body, retried on a non-2xx answer or a network error after retryDelay (firstRetryMs, doubling, at most
 * MAX_ATTEMPTS), recording each attempt on the delivery. Every provider's notifications go through one; reset()
 * cancels the retries waiting (an attempt in flight across a reset schedules none).
 */
export class Retrier {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly firstRetryMs: number;
  private generation = 0;
  constructor(firstRetryMs: number) {
    this.firstRetryMs = firstRetryMs;
  }

  /** `accepted`: when a 2xx is not enough (PAYONE wants the body TSOK), what the answer must be to count as delivered. */
  post(d: Attempts, url: string, body: string, headers: Record<string, string>, what: Record<string, unknown>, accepted?: (text: string) => boolean): void {
    void this.attempt(d, url, body, headers, what, accepted);
  }

  private async attempt(
    d: Attempts,
    url: string,
    body: string,
    headers: Record<string, string>,
    what: Record<string, unknown>,
    accepted?: (text: string) => boolean,
  ): Promise<void> {
    const generation = this.generation;
    d.attempts += 1;
    d.next_attempt_at = null;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      const text = await res.text().catch(() => '');
      d.last_status = res.status;
      d.last_error = null;
      d.delivered = res.status >= 200 && res.status < 300 && (!accepted || accepted(text));
      if (!d.delivered && res.status >= 200 && res.status < 300) d.last_error = `not acknowledged: ${text.slice(0, 100)}`;
    } catch (err) {
      d.last_status = null;
      d.last_error = (err as Error).message;
    }
    if (d.delivered) {
      log.debug('notification delivered', { ...what, attempts: d.attempts });
      return;
    }
    if (generation !== this.generation) return;
    const wait = retryDelay(d.attempts + 1, this.firstRetryMs);
    if (wait === undefined) {
      log.warn('notification given up', { ...what, attempts: d.attempts, last_status: d.last_status });
      return;
    }
    d.next_attempt_at = new Date(Date.now() + wait).toISOString();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(d, url, body, headers, what, accepted);
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }

  reset(): void {
    this.generation += 1;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** Keeps the newest deliveries for tests (GET /__sandbox/<provider>/notifications). */
export function keep<T>(log: T[], d: T): void {
  log.push(d);
  if (log.length > 10_000) log.splice(0, 1_000);
}

export interface Delivery extends Attempts {
  id: string;
  type: NotificationType;
  url: string;
  object_id: string;
  created_at: string;
}

/** Where and how a payment's notifications go: given by the merchant with the payment. */
export interface NotifyTarget {
  webhook_url: string | null;
  webhook_secret: string | null;
}

/** service_test's notifications. */
export class Notifier {
  readonly deliveries: Delivery[] = [];
  private readonly retrier: Retrier;

  constructor(opts: { firstRetryMs: number }) {
    this.retrier = new Retrier(opts.firstRetryMs);
  }

  /**
   * Sends `data` (the object as the provider's GET answers it) to the target's url, signed with its secret; without
   * either, nothing is sent (a notification nobody can verify is no use to the merchant).
   */
  send(to: NotifyTarget | undefined, type: NotificationType, objectId: string, data: unknown): Delivery | undefined {
    const url = to?.webhook_url;
    const secret = to?.webhook_secret;
    if (!url || !secret) return undefined;
    const event = notificationEvent(type, data);
    const body = JSON.stringify(event);
    const delivery: Delivery = {
      id: event.id,
      type,
      url,
      object_id: objectId,
      created_at: event.created_at,
      attempts: 0,
      delivered: false,
      last_status: null,
      last_error: null,
      next_attempt_at: null,
    };
    keep(this.deliveries, delivery);
    this.retrier.post(delivery, url, body, { [SIGNATURE_HEADER]: signBody(body, secret) }, { event_id: event.id, type });
    return delivery;
  }

  /** Forgets every delivery and cancels the retries waiting. */
  reset(): void {
    this.retrier.reset();
    this.deliveries.length = 0;
  }
}
