// Every list reads one merchant's entries in order from an index (S6): for each list's equality filter and sort,
// an index declared in lib/mongo.ts leads with those equality fields and then the sort, in one direction. The webhook
// relay's outbox scan is held to the same rule.
import { describe, expect, it } from 'vitest';
import { INDEXES, type IndexSpec } from './mongo.ts';

interface ListShape {
  name: string;
  collection: string;
  equal: string[];
  sort: Record<string, 1 | -1>;
}

const PAYMENT_SORT = { created: -1, payment_id: -1 } as const;
const DISPUTE_SORT = { created_at: -1, dispute_id: -1 } as const;
const SHAPES: ListShape[] = [
  { name: 'GET /payments/list', collection: 'payments', equal: ['merchant_id'], sort: PAYMENT_SORT },
  { name: 'GET /payments/list?customer_id', collection: 'payments', equal: ['merchant_id', 'customer_id'], sort: PAYMENT_SORT },
  { name: 'POST /payments/list', collection: 'payments', equal: ['merchant_id'], sort: PAYMENT_SORT },
  { name: 'POST /payments/list {customer_id}', collection: 'payments', equal: ['merchant_id', 'customer_id'], sort: PAYMENT_SORT },
  { name: 'POST /payments/list {profile_id}', collection: 'payments', equal: ['merchant_id', 'profile_id'], sort: PAYMENT_SORT },
  { name: 'GET /customers/list', collection: 'customers', equal: ['merchant_id'], sort: { created_at: -1, customer_id: -1 } },
  { name: 'POST /refunds/list', collection: 'refunds', equal: ['merchant_id'], sort: { created_at: -1, refund_id: -1 } },
  { name: 'POST /refunds/list {payment_id}', collection: 'refunds', equal: ['merchant_id', 'payment_id'], sort: { created_at: -1, refund_id: -1 } },
  { name: 'POST /refunds/list {profile_id}', collection: 'refunds', equal: ['merchant_id', 'profile_id'], sort: { created_at: -1, refund_id: -1 } },
  { name: 'GET /disputes/list', collection: 'disputes', equal: ['merchant_id'], sort: DISPUTE_SORT },
  { name: 'GET /disputes/list?dispute_status', collection: 'disputes', equal: ['merchant_id', 'dispute_status'], sort: DISPUTE_SORT },
  { name: 'GET /disputes/list?dispute_stage', collection: 'disputes', equal: ['merchant_id', 'dispute_stage'], sort: DISPUTE_SORT },
  { name: 'GET /disputes/list?connector', collection: 'disputes', equal: ['merchant_id', 'connector'], sort: DISPUTE_SORT },
  { name: 'GET /events/{merchant_id}', collection: 'events', equal: ['merchant_id'], sort: { created_at: -1, event_id: -1 } },
  { name: 'GET /events/{merchant_id}?object_id', collection: 'events', equal: ['merchant_id', 'object_id'], sort: { created_at: -1, event_id: -1 } },
  { name: 'GET /disputes/list?reason', collection: 'disputes', equal: ['merchant_id', 'connector_reason'], sort: DISPUTE_SORT },
];

/** The index serves the list when its keys are the equality fields (any order) and then the sort, all or none reversed. */
function serves(index: IndexSpec, shape: ListShape): boolean {
  if (index.collection !== shape.collection) return false;
  const keys = Object.entries(index.keys);
  const sort = Object.entries(shape.sort);
  if (keys.length !== shape.equal.length + sort.length) return false;
  const head = keys
    .slice(0, shape.equal.length)
    .map(([k]) => k)
    .sort();
  if (head.join() !== [...shape.equal].sort().join()) return false;
  const tail = keys.slice(shape.equal.length);
  const same = tail.every(([k, d], i) => k === sort[i][0] && d === sort[i][1]);
  const reversed = tail.every(([k, d], i) => k === sort[i][0] && d === -sort[i][1]);
  return same || reversed;
}

describe('list indexes', () => {
  for (const shape of SHAPES) {
    it(`${shape.name} is served by a merchant-leading index`, () => {
      const index = INDEXES.find((i) => serves(i, shape));
      expect(index, `no index serves ${shape.name}`).toBeDefined();
      expect(Object.keys(index!.keys)[0]).toBe('merchant_id');
    });
  }

  it('the check refuses an index that does not serve a list', () => {
    const shape = SHAPES[0];
    expect(serves({ collection: 'payments', keys: { payment_id: 1, merchant_id: 1 }, name: 'x' }, shape)).toBe(false);
    expect(serves({ collection: 'payments', keys: { merchant_id: 1, created: -1, payment_id: 1 }, name: 'x' }, shape)).toBe(false);
    expect(serves({ collection: 'payments', keys: { merchant_id: 1, created: 1, payment_id: 1 }, name: 'x' }, shape)).toBe(true);
  });

  it("the webhook relay's outbox scan (oldest first, a batch at a time) is served by an index", () => {
    const scan: ListShape = { name: 'outbox scan', collection: 'transitions', equal: ['outbox'], sort: { at: 1, seq: 1 } };
    expect(INDEXES.some((i) => serves(i, scan))).toBe(true);
  });

  it('index names are unique per collection', () => {
    const names = INDEXES.map((i) => `${i.collection}.${i.name}`);
    expect(new Set(names).size).toBe(names.length);
  });
});
