// The relay without MongoDB or Redis: a payment's transitions relayed in one pass become its events in order, each
// transition is unmarked, the events come from the transition alone (its append wrote which ones), and the transition
// before is asked about only when it entered the outbox and this relay did not relay it (issue 24). Transitions an
// earlier version appended (without their events) are relayed as before: with a read of the one before.
import { describe, expect, it, vi } from 'vitest';
import { beginConfirm } from '../../domain/begin.ts';
import { createIntent } from '../../domain/intent.ts';
import { applyOutcome } from '../../domain/outcomes.ts';
import type { Decision, StoredPayment } from '../../domain/payment.ts';
import type { EventDoc, EventStore, WebhookQueue } from '../../adapters/event-store.ts';
import { OUTBOX_PENDING, transitionOf, type PaymentStore, type Transition } from '../../adapters/payment-store.ts';
import type { MerchantStore, ProfileDoc } from '../../lib/merchant-store.ts';
import { Relay } from './relay.ts';
import { WebhookTargets } from './targets.ts';

const now = '2026-11-23T10:00:00.000Z';
const applied = (prev: StoredPayment, d: Decision): StoredPayment => {
  if (d.kind !== 'apply') throw new Error(`expected apply, got ${d.kind}`);
  return { ...d.payment, seq: prev.seq + 1 };
};
const created = createIntent('m1', { amount: 10_000, currency: 'EUR', capture_method: 'automatic', profile_id: 'pro_1' } as never, {
  now: new Date(now),
  paymentId: 'pay_00000000000000000000000001',
  clientSecret: (id) => `${id}_secret_x`,
  newCustomerId: () => 'cus_1',
  ephemeralSecret: () => 'epk_1',
});
const confirming = applied(created, beginConfirm(created, { payment_method: 'pay_later' }, { now, operationId: 'op_a', connector: 'service_test' }));
const paid = applied(confirming, applyOutcome(confirming, 'op_a', { kind: 'CAPTURED', connector_transaction_id: 'stp_1' }, now));
/** The transitions of a payment as the store appends them, each from the one before. */
const appended = (...ps: StoredPayment[]): Transition[] =>
  ps.map((p, i) => ({ ...transitionOf(ps[i - 1] ?? null, p, { action: 'test', operation_id: null, trace_id: null }), at: now, snapshot: p }));
/** A transition as an earlier version appended it: marked, without its events. */
const legacy = (p: StoredPayment): Transition => ({
  merchant_id: p.merchant_id,
  payment_id: p.payment_id,
  seq: p.seq,
  at: now,
  action: 'test',
  operation_id: null,
  from: null,
  to: p.status,
  trace_id: null,
  snapshot: p,
  outbox: OUTBOX_PENDING,
});

/** In-memory stand-ins for what the relay uses, recording the calls. */
function relayOver(log: Transition[], webhookUrl: string | null = null) {
  const reads: number[] = [];
  /** The seqs the relay asked whether they still wait in the outbox. */
  const asked: number[] = [];
  const unmarked: number[] = [];
  /** The transitions of each unmarking write. */
  const unmarkings: number[][] = [];
  const stored: EventDoc[] = [];
  const payments = {
    outboxPending: async () => log.filter((t) => t.outbox === OUTBOX_PENDING),
    // As PaymentStore.previous: a first transition has none, and asks nothing.
    previous: async (t: Transition) => {
      if (t.seq === 0) return null;
      reads.push(t.seq - 1);
      return log.find((p) => p.seq === t.seq - 1) ?? null;
    },
    inOutbox: async (t: Transition) => {
      asked.push(t.seq);
      return log.some((p) => p.seq === t.seq && p.outbox === OUTBOX_PENDING);
    },
    relayed: async (ts: Transition[]) => {
      unmarkings.push(ts.map((t) => t.seq));
      for (const t of ts) {
        unmarked.push(t.seq);
        const row = log.find((p) => p.payment_id === t.payment_id && p.seq === t.seq);
        if (row) delete row.outbox;
      }
    },
  } as unknown as PaymentStore;
  const events = { insert: async (e: EventDoc) => void stored.push(e) } as unknown as EventStore;
  const queued: string[] = [];
  const queue = { enqueue: async (e: EventDoc) => void queued.push(e.event_id) } as unknown as WebhookQueue;
  const setupReads: string[] = [];
  const profile = { profile_id: 'pro_1', webhook_details: webhookUrl ? { webhook_url: webhookUrl } : null } as ProfileDoc;
  const setup = {
    merchant: async (id: string) => {
      setupReads.push(`merchant:${id}`);
      return { default_profile: 'pro_1' };
    },
    profilesOf: async (id: string) => {
      setupReads.push(`profiles:${id}`);
      return [profile];
    },
  } as unknown as MerchantStore;
  return { relay: new Relay(payments, events, queue, new WebhookTargets(setup, 60_000)), reads, asked, unmarked, unmarkings, stored, queued, setupReads };
}

describe('relay pass', () => {
  it("relays a payment's transitions in order from what they carry, unmarks them in one write, and reads nothing else", async () => {
    const log = appended(created, confirming, paid);
    // The creation gives no event: it never entered the outbox, and its successor knows.
    expect(log.map((t) => [t.outbox ?? null, t.events?.map((e) => e.event_type) ?? null, t.prev_outbox ?? null])).toEqual([
      [null, null, null],
      [OUTBOX_PENDING, ['payment_processing'], false],
      [OUTBOX_PENDING, ['payment_succeeded'], true],
    ]);
    const { relay, reads, asked, unmarked, unmarkings, stored } = relayOver(log);
    expect(await relay.runOnce()).toBe(2);
    expect(stored.map((e) => e.event_type)).toEqual(['payment_processing', 'payment_succeeded']);
    expect(unmarked).toEqual([1, 2]);
    expect(unmarkings).toEqual([[1, 2]]);
    expect([reads, asked]).toEqual([[], []]);
  });

  it('gives the same events, with the same ids and objects, as deriving them from the transition before', async () => {
    const { relay, stored } = relayOver(appended(created, confirming, paid));
    await relay.runOnce();
    const { relay: old, stored: oldStored } = relayOver([created, confirming, paid].map(legacy));
    await old.runOnce();
    expect(stored).toEqual(oldStored);
  });

  it('a pass that fails to unmark leaves its transitions in the outbox; the next relays them again, the same events', async () => {
    const log = appended(created, confirming, paid);
    const { relay, stored } = relayOver(log);
    const payments = (relay as unknown as { payments: { relayed: (ts: Transition[]) => Promise<void> } }).payments;
    const unmark = payments.relayed;
    payments.relayed = async () => {
      throw new Error('MongoDB gone');
    };
    await expect(relay.runOnce()).rejects.toThrow('MongoDB gone');
    expect(log.slice(1).every((t) => t.outbox === OUTBOX_PENDING)).toBe(true);
    payments.relayed = unmark;
    expect(await relay.runOnce()).toBe(2);
    expect(log.some((t) => t.outbox === OUTBOX_PENDING)).toBe(false);
    // Stored twice here (the stand-in keeps every insert); the real store keeps one per event_id.
    expect(new Set(stored.map((e) => e.event_id)).size).toBe(2);
    expect(stored.map((e) => e.event_type)).toEqual(['payment_processing', 'payment_succeeded', 'payment_processing', 'payment_succeeded']);
  });

  it('asks whether the transition before still waits when another relay took it out of the outbox', async () => {
    const log = appended(created, confirming, paid);
    delete log[1].outbox;
    const { relay, reads, asked, stored } = relayOver(log);
    expect(await relay.runOnce()).toBe(1);
    expect([reads, asked]).toEqual([[], [1]]);
    expect(stored.map((e) => e.event_type)).toEqual(['payment_succeeded']);
  });

  it('asks nothing about a transition before that an earlier pass of the same relay relayed', async () => {
    const log = appended(created, confirming, paid);
    const last = log.pop()!;
    const { relay, reads, asked, unmarked, stored } = relayOver(log);
    expect(await relay.runOnce()).toBe(1);
    log.push(last);
    expect(await relay.runOnce()).toBe(1);
    expect([reads, asked]).toEqual([[], []]);
    expect(unmarked).toEqual([1, 2]);
    expect(stored.map((e) => e.event_type)).toEqual(['payment_processing', 'payment_succeeded']);
  });

  it('waits for a transition before still in the outbox that it did not relay, and relays it first', async () => {
    const log = appended(created, confirming, paid);
    const { relay, asked, stored } = relayOver(log);
    // The scan returns the later transition first (as a batch cut off after it could): it must not overtake.
    const payments = (relay as unknown as { payments: { outboxPending: () => Promise<Transition[]> } }).payments;
    payments.outboxPending = async () => log.filter((t) => t.outbox === OUTBOX_PENDING && t.seq === 2);
    expect(await relay.runOnce()).toBe(0);
    expect(asked).toEqual([1]);
    expect(stored).toEqual([]);
  });

  describe('transitions an earlier version appended (no events written with them)', () => {
    it('derives their events from the transition before, read', async () => {
      const log = [created, confirming, paid].map(legacy);
      delete log[0].outbox;
      const { relay, reads, stored } = relayOver(log);
      expect(await relay.runOnce()).toBe(2);
      expect(reads).toEqual([0, 1]);
      expect(stored.map((e) => e.event_type)).toEqual(['payment_processing', 'payment_succeeded']);
    });

    it('waits for a transition before still in the outbox that it did not relay', async () => {
      const log = [created, confirming, paid].map(legacy);
      const { relay, stored } = relayOver(log);
      const payments = (relay as unknown as { payments: { outboxPending: () => Promise<Transition[]> } }).payments;
      payments.outboxPending = async () => log.filter((t) => t.outbox === OUTBOX_PENDING && t.seq === 2);
      expect(await relay.runOnce()).toBe(0);
      expect(stored).toEqual([]);
    });
  });

  it('runs a pass when none has begun for the interval, and none while passes keep beginning', async () => {
    vi.useFakeTimers();
    try {
      const { relay } = relayOver([]);
      let passes = 0;
      const runOnce = relay.runOnce.bind(relay);
      relay.runOnce = async (limit?: number) => {
        passes++;
        return runOnce(limit);
      };
      const stop = relay.watch(1_000, (err) => {
        throw err;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(passes).toBe(1);
      // Passes woken by announcements every 500 ms: the watch adds none.
      for (let i = 0; i < 10; i++) {
        void relay.trigger();
        await vi.advanceTimersByTimeAsync(500);
      }
      expect(passes).toBe(11);
      // No announcement: a pass each interval.
      await vi.advanceTimersByTimeAsync(3_000);
      expect(passes).toBe(14);
      stop();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(passes).toBe(14);
    } finally {
      vi.useRealTimers();
    }
  });

  it('settles the events of a merchant without a webhook URL as not_configured, and queues no delivery', async () => {
    const { relay, stored, queued } = relayOver(appended(created, confirming, paid));
    await relay.runOnce();
    expect(stored.map((e) => e.delivery_status)).toEqual(['not_configured', 'not_configured']);
    expect(queued).toEqual([]);
  });

  it("queues a delivery of each event when the profile has a webhook URL, reading the merchant's setup once", async () => {
    const { relay, stored, queued, setupReads } = relayOver(appended(created, confirming, paid), 'https://merchant.example/hooks');
    await relay.runOnce();
    expect(stored.map((e) => e.delivery_status)).toEqual(['pending', 'pending']);
    expect(queued).toEqual(stored.map((e) => e.event_id));
    expect(setupReads).toEqual(['merchant:m1', 'profiles:m1']);
  });
});
