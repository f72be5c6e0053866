// The dashboard's list forms -> the list endpoints' conditions (issue 23): a blank field is no filter, a bad one is
// named in the form's words and nothing is looked up.
import { describe, expect, it } from 'vitest';
import { disputesCondition, DisputesQuery, listPayments, PAGE_SIZE, paymentsCondition, PaymentsQuery, refundsCondition, RefundsQuery } from './lists.ts';
import type { PaymentStore } from '../../adapters/payment-store.ts';

describe('dashboard list filters', () => {
  it('payments: status, connector, whole UTC days and a search by payment id or customer id', () => {
    const q = PaymentsQuery.parse({ status: 'succeeded', connector: 'service_test', from: '2026-11-01', to: '2026-11-02', q: 'cus_1', page: '3' });
    expect(paymentsCondition(q)).toEqual({
      status: { $in: ['succeeded'] },
      connector: { $in: ['service_test'] },
      created: { $gte: '2026-11-01T00:00:00.000Z', $lte: '2026-11-02T23:59:59.999Z' },
      $or: [{ payment_id: 'cus_1' }, { customer_id: 'cus_1' }],
    });
    expect(paymentsCondition(PaymentsQuery.parse({}))).toEqual({});
  });

  it("refunds and disputes use their own endpoints' fields", () => {
    expect(refundsCondition(RefundsQuery.parse({ status: 'pending', q: 'ref_1' }))).toEqual({
      status: { $in: ['pending'] },
      $or: [{ refund_id: 'ref_1' }, { payment_id: 'ref_1' }],
    });
    expect(disputesCondition(DisputesQuery.parse({ status: 'dispute_won', stage: 'dispute', from: '2026-11-01' }))).toEqual({
      dispute_status: 'dispute_won',
      dispute_stage: 'dispute',
      created_at: { $gte: '2026-11-01T00:00:00.000Z' },
    });
  });

  it('a bad field is named as the form names it, and nothing is read', async () => {
    const untouched = { list: () => Promise.reject(new Error('must not be read')) } as unknown as PaymentStore;
    const cases: [Record<string, string>, string][] = [
      [{ status: 'paid' }, 'Status: is not one of the choices'],
      [{ from: '2026-02-30' }, 'From: is not a day of the calendar'],
      [{ from: '27.11.2026' }, 'From: must be a date like 2026-11-27'],
      [{ from: '2026-11-02', to: '2026-11-01' }, 'To: must not be before the "from" day'],
      [{ page: '0' }, 'Page: must be 1 or more'],
      [{ colour: 'red' }, 'colour: is not a filter of this list'],
    ];
    for (const [query, message] of cases) {
      const r = await listPayments(untouched, 'm1', query);
      expect(r.error?.message, JSON.stringify(query)).toBe(message);
      expect(r.rows).toEqual([]);
      expect(r.values).toEqual(query);
    }
  });

  it('pages: one row more than a page is read, and says there is a next page', async () => {
    const asked: unknown[] = [];
    const rows = Array.from({ length: PAGE_SIZE + 1 }, (_, i) => ({ payment_id: `p${i}` }));
    const store = {
      list: async (_m: string, filter: unknown, opts: unknown) => {
        asked.push({ filter, opts });
        return { data: rows, total: null };
      },
    } as unknown as PaymentStore;
    const r = await listPayments(store, 'm1', { page: '2', status: '' });
    expect(asked).toEqual([{ filter: {}, opts: { limit: PAGE_SIZE + 1, skip: PAGE_SIZE } }]);
    expect(r).toMatchObject({ page: 2, hasNext: true, error: null, values: {} });
    expect(r.rows).toHaveLength(PAGE_SIZE);
  });
});
