// Riverty's webhooks as the sandbox sends them, in the shape of Riverty's published CustomerAuthenticationCompleted
// example (workers/connectors/riverty/fixtures/published/customer-authentication-completed.json, read here as the
// template): {Header: {TransmittedTimeStamp, ClientId, MessageName, Version, MessageId, ShopId, CountryCode}, Body:
// {OrderNumber, Status}}, POSTed to the order's webhookUrl, unsigned (the example carries no signature; Riverty's
// Riverty-Signature construction is not published), retried like service_test's (../../notifier.ts).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { keep, Retrier, type Attempts } from '../../notifier.ts';

const TEMPLATE = JSON.parse(
  readFileSync(new URL('../../../../workers/connectors/riverty/fixtures/published/customer-authentication-completed.json', import.meta.url), 'utf8'),
);

export type RivertyMessageName = 'CustomerAuthenticationCompleted';

export interface RivertyDelivery extends Attempts {
  id: string;
  type: RivertyMessageName;
  url: string;
  object_id: string;
  created_at: string;
  body: unknown;
}

export class RivertyNotifier {
  readonly deliveries: RivertyDelivery[] = [];
  private readonly retrier: Retrier;
  constructor(opts: { firstRetryMs: number }) {
    this.retrier = new Retrier(opts.firstRetryMs);
  }

  /** Sends the message about order `orderNumber` (in `country`) to `url` (none: nothing sent). */
  send(url: string | null | undefined, name: RivertyMessageName, orderNumber: string, body: Record<string, unknown>, country: string): void {
    if (!url) return;
    const id = randomUUID();
    const message = {
      Header: { ...TEMPLATE.Header, TransmittedTimeStamp: new Date().toISOString(), MessageName: name, MessageId: id, CountryCode: country },
      Body: { OrderNumber: orderNumber, ...body },
    };
    const d: RivertyDelivery = {
      id,
      type: name,
      url,
      object_id: orderNumber,
      created_at: new Date().toISOString(),
      attempts: 0,
      delivered: false,
      last_status: null,
      last_error: null,
      next_attempt_at: null,
      body: message,
    };
    keep(this.deliveries, d);
    this.retrier.post(d, url, JSON.stringify(message), {}, { provider: 'riverty', id, type: name });
  }

  reset(): void {
    this.retrier.reset();
    this.deliveries.length = 0;
  }
}
