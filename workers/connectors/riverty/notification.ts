// Riverty's notifications (the sandbox sends them, signed; the gateway verifies and records them):
//   {Header: {MessageId, MessageType, Timestamp}, Body: {OrderNumber, Status: Accepted|Rejected, ReservationId?, RiskCheckMessages?}}
//   CustomerAuthenticationCompleted  the customer finished (or failed) the strong customer authentication
//   RiskCheckCompleted               a manual risk review decided an order left Pending (UNVERIFIED message type)
// The envelope follows the summary's CustomerAuthenticationCompleted {Header, Body{OrderNumber, Status}}; the
// fields beyond those, the review message and the signature are UNVERIFIED.
import { z } from 'zod';
import type { Outcome } from '../../../domain/payment.ts';
import { readBody, unreadable } from '../kit/notification.ts';
import type { ProviderNotification } from '../types.ts';
import { unifiedFor } from './errors.ts';
import { RivertyMessage } from './response.ts';

const Notification = z.object({
  Header: z.object({ MessageId: z.string().optional(), MessageType: z.string(), Timestamp: z.string().optional() }),
  Body: z.object({
    OrderNumber: z.string().min(1),
    Status: z.enum(['Accepted', 'Rejected']),
    ReservationId: z.string().nullish(),
    RiskCheckMessages: z.array(RivertyMessage).nullish(),
  }),
});

const TYPES = new Set(['CustomerAuthenticationCompleted', 'RiskCheckCompleted']);
const unknown = unreadable;

export function parseNotification(rawBody: string): ProviderNotification {
  const body = readBody(rawBody, z.unknown(), 'JSON');
  if (!('data' in body)) return body;
  const json = body.data;
  const type = (json as { Header?: { MessageType?: unknown } } | null)?.Header?.MessageType;
  if (typeof type === 'string' && !TYPES.has(type)) return unknown(`message type ${type} is not one we act on`);
  const r = Notification.safeParse(json);
  if (!r.success) return unknown(`not a Riverty notification: ${z.prettifyError(r.error)}`);
  const { Header: h, Body: b } = r.data;
  const ids = { connector_transaction_id: b.OrderNumber, connector_reference_id: b.ReservationId ?? undefined };
  const m = b.RiskCheckMessages?.[0] ?? { code: 'Rejected', message: 'Riverty rejected the order' };
  const outcome: Outcome = b.Status === 'Accepted'
    ? { kind: 'AUTHORIZED', ...ids }
    : { kind: 'DECLINED', ...ids, error_code: m.code, error_message: m.message, ...unifiedFor(m.code) };
  return { object: 'payment', connector_transaction_id: b.OrderNumber, object_id: b.OrderNumber, provider_updated_at: h.Timestamp ?? '', outcome };
}
