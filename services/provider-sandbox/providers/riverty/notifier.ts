// Riverty's notifications as the sandbox sends them: {Header: {MessageId, MessageType, Timestamp}, Body: {...}} POSTed
// to the order's webhookUrl, signed in `x-riverty-signature` (lowercase hex HMAC-SHA256 of the exact body; Riverty
// documents no signature: UNVERIFIED), retried like service_test's (../../notifier.ts: the same delays and attempts).
import { createHmac, randomUUID } from 'node:crypto';
import { keep, Retrier, type Attempts } from '../../notifier.ts';

export const RIVERTY_SIGNATURE_HEADER = 'x-riverty-signature';

export type RivertyMessageType = 'CustomerAuthenticationCompleted' | 'RiskCheckCompleted';

export interface RivertyDelivery extends Attempts {
  id: string;
  type: RivertyMessageType;
  url: string;
  object_id: string;
  created_at: string;
  body: unknown;
}

export const signRiverty = (rawBody: string, secret: string) => createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');

export class RivertyNotifier {
  readonly deliveries: RivertyDelivery[] = [];
  private readonly secret: string;
  private readonly retrier: Retrier;
  constructor(opts: { secret: string; firstRetryMs: number }) {
    this.secret = opts.secret;
    this.retrier = new Retrier(opts.firstRetryMs);
  }

  /** Sends the message about order `orderNumber` to `url` (none: nothing sent). `at` is the order's updated_at. */
  send(url: string | null | undefined, type: RivertyMessageType, orderNumber: string, body: Record<string, unknown>, at: string): void {
    if (!url) return;
    const message = { Header: { MessageId: randomUUID(), MessageType: type, Timestamp: at }, Body: body };
    const raw = JSON.stringify(message);
    const d: RivertyDelivery = {
      id: message.Header.MessageId, type, url, object_id: orderNumber, created_at: new Date().toISOString(),
      attempts: 0, delivered: false, last_status: null, last_error: null, next_attempt_at: null, body: message,
    };
    keep(this.deliveries, d);
    this.retrier.post(d, url, raw, { [RIVERTY_SIGNATURE_HEADER]: signRiverty(raw, this.secret) }, { provider: 'riverty', id: d.id, type });
  }

  reset(): void {
    this.retrier.reset();
    this.deliveries.length = 0;
  }
}
