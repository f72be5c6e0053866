// PAYONE's TransactionStatus: a form-encoded POST to the URL configured for the portal (key = md5 of the portal key,
// txaction, txid, reference, sequencenumber, price, balance, receivable, currency, ...). The key in the body is its
// only proof of origin, which no webhook scheme of ours checks (they read a header): so the manifest says 'unsigned'
// and a TransactionStatus is only a hint naming the transaction. See README.md.
import { z } from 'zod';
import type { NotificationFlow, ProviderNotification } from '../types.ts';

export const TXACTIONS = [
  'appointed', 'capture', 'paid', 'underpaid', 'cancelation', 'refund', 'debit', 'reminder', 'invoice', 'transfer', 'failed',
  'vauthorization', 'vsettlement',
] as const;

export const TransactionStatus = z.object({
  key: z.string().regex(/^[0-9a-f]{32}$/i),
  txaction: z.enum(TXACTIONS),
  txid: z.string().regex(/^\d+$/),
  portalid: z.string(),
  aid: z.string().optional(),
  mode: z.enum(['test', 'live']).optional(),
  clearingtype: z.string().optional(),
  reference: z.string().optional(),
  sequencenumber: z.string().regex(/^\d+$/).optional(),
  price: z.string().optional(),
  balance: z.string().optional(),
  receivable: z.string().optional(),
  currency: z.string().optional(),
  txtime: z.string().optional(),
  userid: z.string().optional(),
  transaction_status: z.enum(['completed', 'pending']).optional(),
}).passthrough();

export function parseNotification(rawBody: string): ProviderNotification {
  const r = TransactionStatus.safeParse(Object.fromEntries(new URLSearchParams(rawBody)));
  if (!r.success) return { object: 'unknown', reason: `not a PAYONE TransactionStatus: ${z.prettifyError(r.error)}` };
  return { object: 'hint', connector_transaction_id: r.data.txid, event: r.data.txaction };
}

export const notification: NotificationFlow = { parse: parseNotification };
