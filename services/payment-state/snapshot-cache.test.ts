import { describe, expect, it } from 'vitest';
import type { StoredPayment } from '../../domain/payment.ts';
import { SnapshotCache } from './service.ts';

const payment = (seq: number) => ({ seq }) as StoredPayment;

describe('payment-state snapshot cache', () => {
  it('holds at most its bound, forgetting the least recently written first', () => {
    const cache = new SnapshotCache(3);
    for (let i = 0; i < 10; i++) cache.set(`m:p${i}`, payment(1));
    cache.set('m:p7', payment(2));
    cache.set('m:p10', payment(1));
    expect(['m:p6', 'm:p7', 'm:p8', 'm:p9', 'm:p10'].map((k) => cache.get(k)?.seq)).toEqual([undefined, 2, undefined, 1, 1]);
  });

  it('never replaces a snapshot with an older one', () => {
    const cache = new SnapshotCache(3);
    cache.set('m:p', payment(4));
    cache.set('m:p', payment(3));
    expect(cache.get('m:p')?.seq).toBe(4);
  });
});
