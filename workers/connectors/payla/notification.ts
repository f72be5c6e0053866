// PAYONE's TransactionStatus: a form-encoded POST to the URL configured for the portal (key = md5 of the portal key,
// txaction, txid, reference, sequencenumber, price, balance, receivable, currency, ...). The key in the body is its
// only proof of origin, which no webhook scheme of ours checks (they read a header): so the manifest says 'unsigned'
// and a TransactionStatus is only a hint naming the transaction. See README.md.
import { readPart } from '../kit/notification.ts';
import type { NotificationFlow, ProviderNotification } from '../types.ts';
import { TransactionStatus } from './schemas.ts';

export function parseNotification(rawBody: string): ProviderNotification {
  const r = readPart(Object.fromEntries(new URLSearchParams(rawBody)), TransactionStatus, 'a PAYONE TransactionStatus');
  if (!('data' in r)) return r;
  return { object: 'hint', connector_transaction_id: r.data.txid, event: r.data.txaction };
}

export const notification: NotificationFlow = { parse: parseNotification };
