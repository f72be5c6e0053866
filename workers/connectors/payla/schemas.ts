// PAYONE's (Payla) Server API answers and TransactionStatus notification as zod schemas, from PAYONE's own
// key=value shapes (README.md, Sources; fixtures/). Read through the kit (readValue): never cast.
import { z } from 'zod';

export const Txid = z.string().regex(/^\d+$/);

export const PayoneApproved = z
  .object({
    status: z.literal('APPROVED'),
    txid: Txid.optional(),
    userid: z.string().optional(),
    settleaccount: z.string().optional(),
    clearing_bankaccountholder: z.string().optional(),
    clearing_bankiban: z.string().optional(),
    clearing_bankbic: z.string().optional(),
    clearing_reference: z.string().optional(),
  })
  .passthrough();

export const PayonePending = z.object({ status: z.literal('PENDING'), txid: Txid, userid: z.string().optional() }).passthrough();

export const PayoneError = z
  .object({
    status: z.literal('ERROR'),
    errorcode: z.string().regex(/^\d+$/),
    errormessage: z.string().optional(),
    customermessage: z.string().optional(),
    txid: Txid.optional(),
  })
  .passthrough();

export const PayoneAnswer = z.discriminatedUnion('status', [PayoneApproved, PayonePending, PayoneError]);

export type PayoneAnswer = z.infer<typeof PayoneAnswer>;

export const TXACTIONS = [
  'appointed',
  'capture',
  'paid',
  'underpaid',
  'cancelation',
  'refund',
  'debit',
  'reminder',
  'invoice',
  'transfer',
  'failed',
  'vauthorization',
  'vsettlement',
] as const;

export const TransactionStatus = z
  .object({
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
  })
  .passthrough();
