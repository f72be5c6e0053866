// Svea's request signature (docs.payments.svea.com authentication; sveawebpay/php-checkout Connector.php): every call
// carries `Timestamp: yyyy-MM-dd HH:mm:ss` (UTC) and `Authorization: Svea base64(merchantId:sha512hex(body + secret +
// timestamp))`, the body being the exact JSON sent (empty for a GET).
import { createHash } from 'node:crypto';

export const sveaTimestamp = (now = new Date()) => now.toISOString().slice(0, 19).replace('T', ' ');

export function sveaToken(merchantId: string, secret: string, body: string, timestamp: string): string {
  const digest = createHash('sha512')
    .update(body + secret + timestamp, 'utf8')
    .digest('hex');
  return Buffer.from(`${merchantId}:${digest}`, 'utf8').toString('base64');
}

/** The two headers of one request; `body` must be what is sent: JSON.stringify of the request body, or undefined. */
export function sveaHeaders(merchantId: string, secret: string, body: unknown, now = new Date()): Record<string, string> {
  const timestamp = sveaTimestamp(now);
  const raw = body === undefined ? '' : JSON.stringify(body);
  return { timestamp, authorization: `Svea ${sveaToken(merchantId, secret, raw, timestamp)}` };
}
