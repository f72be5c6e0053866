// One payment's timeline (issue 23): transitions, provider calls, events and webhook attempts merged in time order.
import { describe, expect, it } from 'vitest';
import type { AttemptDoc, EventDoc } from '../../adapters/event-store.ts';
import type { Transition } from '../../adapters/payment-store.ts';
import { createIntent } from '../../domain/intent.ts';
import type { StoredPayment } from '../../domain/payment.ts';
import { actionTitle, buildTimeline, traceIdsOf, traceLink } from './timeline.ts';

const T = (s: number) => new Date(Date.UTC(2026, 10, 27, 10, 0, s)).toISOString();
const TRACE = 'a'.repeat(32);
const intent = createIntent(
  'm1',
  { amount: 4_200, currency: 'EUR' },
  {
    now: new Date(T(0)),
    paymentId: `pay_${'1'.repeat(26)}`,
    clientSecret: (id) => `${id}_secret_x`,
    newCustomerId: () => 'cus_1',
    ephemeralSecret: () => 'epk_1',
  },
);
const payment: StoredPayment = {
  ...intent,
  status: 'succeeded',
  operations: [
    {
      operation_id: 'op_1',
      kind: 'authorize',
      ref: 'att_1',
      amount: 4_200,
      connector: 'service_test',
      open: false,
      status_before: 'requires_confirmation',
      last_outcome: 'CAPTURED',
      created_at: T(1),
    },
  ],
};
const transition = (seq: number, at: string, action: string, from: string | null, to: string, operation_id: string | null): Transition => ({
  merchant_id: 'm1',
  payment_id: payment.payment_id,
  seq,
  at,
  action,
  operation_id,
  from,
  to,
  trace_id: seq === 0 ? null : TRACE,
  snapshot: payment,
});
const transitions = [
  transition(0, T(0), 'create', null, 'requires_confirmation', null),
  transition(1, T(1), 'confirm', 'requires_confirmation', 'processing', 'op_1'),
  transition(2, T(2), 'outcome:captured', 'processing', 'succeeded', 'op_1'),
];
const event: EventDoc = {
  event_id: 'evt_1',
  merchant_id: 'm1',
  profile_id: null,
  event_type: 'payment_succeeded',
  object_type: 'payment_details',
  object_id: payment.payment_id,
  payment_id: payment.payment_id,
  sequence: 2,
  order: 0,
  created_at: T(2),
  object: null,
  delivery_status: 'delivered',
  delivery_attempts: 2,
  last_attempt_at: T(4),
  delivered_at: T(4),
};
const attempt = (id: string, at: string, delivered: boolean): AttemptDoc => ({
  attempt_id: id,
  event_id: 'evt_1',
  merchant_id: 'm1',
  trigger: 'automatic',
  url: 'https://shop.example/hooks',
  request: { headers: {}, body: '' },
  response: delivered ? { status_code: 200, body: 'ok', headers: {} } : null,
  error: delivered ? null : 'connection refused',
  delivered,
  started_at: at,
  duration_ms: 12,
});

describe('payment timeline', () => {
  it('merges every record in time order; at the same instant the transition comes before the call, the event, the attempt', () => {
    // Given out of order, as separate reads return them.
    const entries = buildTimeline({
      payment,
      transitions: [...transitions].reverse(),
      events: [event],
      attempts: [attempt('a2', T(4), true), attempt('a1', T(3), false)],
    });
    expect(entries.map((e) => [e.at, e.kind, e.title])).toEqual([
      [T(0), 'transition', 'Created'],
      [T(1), 'transition', 'Confirmed by the customer'],
      [T(1), 'provider_call', 'service_test: authorize 42.00 EUR'],
      [T(2), 'transition', 'Provider answered: captured'],
      [T(2), 'event', 'Event payment_succeeded'],
      [T(3), 'webhook_attempt', 'Webhook not delivered'],
      [T(4), 'webhook_attempt', 'Webhook delivered'],
    ]);
    expect(entries[2]).toMatchObject({ detail: 'op_1 · att_1 · captured', ok: true, trace_id: TRACE });
    expect(entries[5]).toMatchObject({ detail: 'https://shop.example/hooks · connection refused · 12 ms · evt_1', ok: false });
    expect(entries[6]!.detail).toContain('HTTP 200');
    expect(entries[1]!.detail).toBe('#1 requires confirmation → processing · op_1');
  });

  it('names actions in words, and lists each trace id once', () => {
    expect(actionTitle('outcome:declined')).toBe('Provider answered: declined');
    expect(actionTitle('dispute:dispute_opened')).toBe('Dispute: dispute opened');
    expect(actionTitle('something_new')).toBe('Something new');
    expect(traceIdsOf(transitions)).toEqual([TRACE]);
  });

  it('links a trace only when a viewer is configured, and only a trace id of the right shape', () => {
    expect(traceLink(TRACE, '')).toBeNull();
    expect(traceLink(TRACE, 'http://127.0.0.1:16686/trace/{trace_id}')).toBe(`http://127.0.0.1:16686/trace/${TRACE}`);
    expect(traceLink('"><script>', 'http://j/trace/{trace_id}')).toBeNull();
  });
});
