// Disputes (spec 4.11, 4.12): read only; they exist because a provider said so (payment-state's ReportDispute).
import type { Request, Router } from 'express';
import type { Filter } from 'mongodb';
import { found } from '../../lib/errors.ts';
import type { DisputeDoc, DisputeStore } from '../../lib/dispute-store.ts';
import { ListDisputesQuery } from '../../lib/schemas/dispute.ts';
import { validate } from '../validate.ts';
import { scopedRouter } from '../scope.ts';

const merchantOf = (req: Request) => req.merchantId!;

/** GET /disputes/list's query -> the filter on the projection (received_time is the dispute's created_at). */
function filterOf(q: ReturnType<typeof ListDisputesQuery.parse>): Filter<DisputeDoc> {
  const filter: Record<string, unknown> = {};
  const anyOf = (values: readonly string[]) => (values.length === 1 ? values[0] : { $in: values });
  if (q.dispute_status?.length) filter.dispute_status = anyOf(q.dispute_status);
  if (q.dispute_stage?.length) filter.dispute_stage = anyOf(q.dispute_stage);
  if (q.connector?.length) filter.connector = anyOf(q.connector);
  if (q.reason) filter.connector_reason = q.reason;
  const received: Record<string, string> = {};
  if (q.received_time) received.$eq = new Date(q.received_time).toISOString();
  for (const op of ['lt', 'gt', 'lte', 'gte'] as const) {
    const v = q[`received_time.${op}`];
    if (v) received[`$${op}`] = new Date(v).toISOString();
  }
  if (Object.keys(received).length) filter.created_at = received;
  return filter as Filter<DisputeDoc>;
}

export function disputesRouter(disputes: DisputeStore): Router {
  // Secret key only (scopedRouter's default).
  const r = scopedRouter();

  // Declared before /disputes/:dispute_id so that "list" is never taken for a dispute id.
  r.get('/disputes/list', async (req, res) => {
    const q = validate(ListDisputesQuery, req.query);
    res.json(await disputes.list(merchantOf(req), filterOf(q), q.limit ?? 10));
  });

  r.get('/disputes/:dispute_id', async (req, res) => {
    res.json(found(await disputes.find(merchantOf(req), req.params.dispute_id as string), 'Dispute'));
  });

  return r;
}
