// The dashboard's payments, refunds and disputes lists (issue 23): a GET form's query (strings; a blank field is no
// filter) -> the list endpoint's own filter body (ListPaymentsFilter, ListRefundsFilter, ListDisputesQuery) -> the
// same MongoDB condition and store read as the API's lists (gateway/list-filters.ts). Dates are whole UTC days.
import type { Filter } from 'mongodb';
import { z } from 'zod';
import type { ListedPayment, PaymentStore } from '../../adapters/payment-store.ts';
import type { ListedRefund, RefundDoc, RefundStore } from '../../adapters/refund-store.ts';
import type { DisputeDoc, DisputeStore } from '../../lib/dispute-store.ts';
import { Connector, PaymentStatus } from '../../lib/schemas/common.ts';
import { DisputeStage, DisputeStatus, ListDisputesQuery, type DisputeResource } from '../../lib/schemas/dispute.ts';
import { MAX_LIST_OFFSET } from '../../lib/schemas/list-limits.ts';
import { ListPaymentsFilter } from '../../lib/schemas/payment.ts';
import { ListRefundsFilter, RefundStatus } from '../../lib/schemas/refund.ts';
import type { StoredPayment } from '../../domain/payment.ts';
import { disputesFilter, paymentsFilter, refundsFilter } from '../list-filters.ts';

export const PAGE_SIZE = 20;
const MAX_PAGE = Math.floor(MAX_LIST_OFFSET / PAGE_SIZE) + 1;

const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-11-27')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'is not a day of the calendar');

const common = {
  from: Day.optional(),
  to: Day.optional(),
  q: z.string().trim().min(1).max(255).optional(),
  page: z.coerce.number().int('must be a whole number').min(1, 'must be 1 or more').max(MAX_PAGE, `must be at most ${MAX_PAGE}`).optional(),
};
const inOrder = (v: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before the "from" day' });
};

export const PaymentsQuery = z.strictObject({ status: PaymentStatus.optional(), connector: Connector.optional(), ...common }).superRefine(inOrder);
export const RefundsQuery = z.strictObject({ status: RefundStatus.optional(), connector: Connector.optional(), ...common }).superRefine(inOrder);
export const DisputesQuery = z
  .strictObject({ status: DisputeStatus.optional(), stage: DisputeStage.optional(), connector: Connector.optional(), ...common })
  .superRefine(inOrder);

/** How each list form names its fields (an error names the field as the page shows it). */
export const FIELD_LABELS: Record<string, string> = {
  status: 'Status',
  stage: 'Stage',
  connector: 'Connector',
  from: 'From',
  to: 'To',
  q: 'Search',
  page: 'Page',
};

/** A list page's rows, where they are in the list, and the form's values (the query as given, for the form to show). */
export interface ListPage<T> {
  rows: T[];
  page: number;
  hasNext: boolean;
  values: Record<string, string>;
  /** A field of the form that could not be read: nothing was looked up. */
  error: { field: string; message: string } | null;
}

/** The query's plain string values (a repeated parameter or a nested one is not: the schema refuses it by name). */
function formValues(query: unknown): Record<string, unknown> {
  if (!query || typeof query !== 'object') return {};
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
}

function parse<S extends z.ZodType>(schema: S, query: unknown): { ok: true; q: z.infer<S> } | { ok: false; field: string; message: string } {
  const r = schema.safeParse(formValues(query));
  if (r.success) return { ok: true, q: r.data };
  const issue = r.error.issues[0]!;
  const field = issue.code === 'unrecognized_keys' ? issue.keys[0]! : String(issue.path[0] ?? 'query');
  const label = FIELD_LABELS[field] ?? field;
  const message =
    issue.code === 'unrecognized_keys' ? 'is not a filter of this list' : issue.code === 'invalid_value' ? 'is not one of the choices' : issue.message;
  return { ok: false, field, message: `${label}: ${message}` };
}

const shown = (query: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(formValues(query)).filter((e): e is [string, string] => typeof e[1] === 'string'));

const dayStart = (d: string | undefined) => (d ? `${d}T00:00:00.000Z` : undefined);
const dayEnd = (d: string | undefined) => (d ? `${d}T23:59:59.999Z` : undefined);
const pageOf = (q: { page?: number }) => q.page ?? 1;
const window = (q: { page?: number }) => ({ limit: PAGE_SIZE + 1, offset: (pageOf(q) - 1) * PAGE_SIZE });

/** One more row than a page is read: its presence says there is a next page. */
function paged<T>(rows: T[], q: { page?: number }, values: Record<string, string>): ListPage<T> {
  return { rows: rows.slice(0, PAGE_SIZE), page: pageOf(q), hasNext: rows.length > PAGE_SIZE, values, error: null };
}
const refused = <T>(values: Record<string, string>, error: { field: string; message: string }): ListPage<T> => ({
  rows: [],
  page: 1,
  hasNext: false,
  values,
  error,
});

/** `q`: a payment id or a customer id, matched whole. */
export function paymentsCondition(q: z.infer<typeof PaymentsQuery>): Filter<StoredPayment> {
  const body = ListPaymentsFilter.parse({
    status: q.status ? [q.status] : undefined,
    connector: q.connector ? [q.connector] : undefined,
    start_time: dayStart(q.from),
    end_time: dayEnd(q.to),
    ...window(q),
  });
  const filter = paymentsFilter(body);
  return q.q ? ({ ...filter, $or: [{ payment_id: q.q }, { customer_id: q.q }] } as Filter<StoredPayment>) : filter;
}

export async function listPayments(store: PaymentStore, merchantId: string, query: unknown): Promise<ListPage<ListedPayment>> {
  const parsed = parse(PaymentsQuery, query);
  if (!parsed.ok) return refused(shown(query), parsed);
  const { limit, offset } = window(parsed.q);
  const { data } = await store.list(merchantId, paymentsCondition(parsed.q), { limit, skip: offset });
  return paged(data, parsed.q, shown(query));
}

/** `q`: a refund id or a payment id, matched whole. */
export function refundsCondition(q: z.infer<typeof RefundsQuery>): Filter<RefundDoc> {
  const body = ListRefundsFilter.parse({
    refund_status: q.status ? [q.status] : undefined,
    connector: q.connector ? [q.connector] : undefined,
    start_time: dayStart(q.from),
    end_time: dayEnd(q.to),
    ...window(q),
  });
  const filter = refundsFilter(body);
  return q.q ? ({ ...filter, $or: [{ refund_id: q.q }, { payment_id: q.q }] } as Filter<RefundDoc>) : filter;
}

export async function listRefunds(store: RefundStore, merchantId: string, query: unknown): Promise<ListPage<ListedRefund>> {
  const parsed = parse(RefundsQuery, query);
  if (!parsed.ok) return refused(shown(query), parsed);
  const { limit, offset } = window(parsed.q);
  const { data } = await store.list(merchantId, refundsCondition(parsed.q), { limit, skip: offset });
  return paged(data, parsed.q, shown(query));
}

/** `q`: a dispute id or a payment id, matched whole. */
export function disputesCondition(q: z.infer<typeof DisputesQuery>): Filter<DisputeDoc> {
  const body = ListDisputesQuery.parse({
    dispute_status: q.status,
    dispute_stage: q.stage,
    connector: q.connector,
    'received_time.gte': dayStart(q.from),
    'received_time.lte': dayEnd(q.to),
  });
  const filter = disputesFilter(body);
  return q.q ? ({ ...filter, $or: [{ dispute_id: q.q }, { payment_id: q.q }] } as Filter<DisputeDoc>) : filter;
}

export async function listDisputes(store: DisputeStore, merchantId: string, query: unknown): Promise<ListPage<DisputeResource>> {
  const parsed = parse(DisputesQuery, query);
  if (!parsed.ok) return refused(shown(query), parsed);
  const { limit, offset } = window(parsed.q);
  return paged(await store.list(merchantId, disputesCondition(parsed.q), limit, offset), parsed.q, shown(query));
}
