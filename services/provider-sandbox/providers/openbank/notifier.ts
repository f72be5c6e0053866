// Zinia's notifications as the sandbox sends them (designed, UNVERIFIED: the guide's chapter is not public): an
// unsigned JSON POST to the order's urls.notification_url, {event, order_id, merchant_order_id, status, refund_id?,
// timestamp}, after which the merchant re-reads the order. Retried like every sandbox notification (../../notifier.ts).
import { randomUUID } from 'node:crypto';
import { keep, Retrier, type Attempts } from '../../notifier.ts';

export type ZiniaEvent = 'ORDER_STATUS_CHANGED' | 'REFUND_STATUS_CHANGED';

export interface ZiniaDelivery extends Attempts {
  id: string;
  type: ZiniaEvent;
  url: string;
  object_id: string;
  created_at: string;
  body: Record<string, unknown>;
}

export class ZiniaNotifier {
  readonly deliveries: ZiniaDelivery[] = [];
  private readonly retrier: Retrier;
  constructor(firstRetryMs: number) {
    this.retrier = new Retrier(firstRetryMs);
  }

  /** Tells `url` (none: nothing sent) that order `orderId` (or one of its refunds) changed; `at` is its updated_at. */
  send(url: string | null, event: ZiniaEvent, body: { order_id: string; merchant_order_id: string; status: string; refund_id?: string }, at: string): void {
    if (!url) return;
    const message = { event, ...body, timestamp: at };
    const d: ZiniaDelivery = {
      id: randomUUID(),
      type: event,
      url,
      object_id: body.refund_id ?? body.order_id,
      created_at: new Date().toISOString(),
      attempts: 0,
      delivered: false,
      last_status: null,
      last_error: null,
      next_attempt_at: null,
      body: message,
    };
    keep(this.deliveries, d);
    this.retrier.post(d, url, JSON.stringify(message), {}, { provider: 'openbank', id: d.id, event, order_id: body.order_id });
  }

  reset(): void {
    this.retrier.reset();
    this.deliveries.length = 0;
  }
}
