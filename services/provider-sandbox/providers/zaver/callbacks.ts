// Zaver's callbacks as the sandbox sends them: the object itself (a PaymentStatusResponse or a RefundResponse, as
// GET answers it) POSTed to the callbackUrl the merchant gave with the payment or the refund, with the merchant's
// static callback token in `Authorization: Bearer <token>` (no HMAC), retried like every sandbox notification
// (../../notifier.ts Retrier; Zaver's own retry policy is UNVERIFIED).
import { randomUUID } from 'node:crypto';
import { keep, Retrier, type Attempts } from '../../notifier.ts';

export type ZaverCallbackType = 'payment' | 'refund';

export interface ZaverDelivery extends Attempts {
  id: string;
  type: ZaverCallbackType;
  /** The paymentStatus or refund status the callback told. */
  status: string;
  url: string;
  object_id: string;
  created_at: string;
  body: unknown;
}

export class ZaverCallbacks {
  readonly deliveries: ZaverDelivery[] = [];
  private readonly token: string;
  private readonly retrier: Retrier;
  constructor(opts: { token: string; firstRetryMs: number }) {
    this.token = opts.token;
    this.retrier = new Retrier(opts.firstRetryMs);
  }

  /** Sends `body` about `objectId` to `url` (none: nothing sent). */
  send(url: string | null | undefined, type: ZaverCallbackType, objectId: string, status: string, body: unknown): void {
    if (!url) return;
    const d: ZaverDelivery = {
      id: randomUUID(),
      type,
      status,
      url,
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
    this.retrier.post(d, url, JSON.stringify(body), { authorization: `Bearer ${this.token}` }, { provider: 'zaver', id: d.id, type, status });
  }

  reset(): void {
    this.retrier.reset();
    this.deliveries.length = 0;
  }
}
