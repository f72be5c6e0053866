// Disputes (spec 4.11, 4.12): read only; they exist because a provider said so (payment-state's ReportDispute).
import type { Request, Router } from 'express';
import { found } from '../../lib/errors.ts';
import type { DisputeStore } from '../../lib/dispute-store.ts';
import { ListDisputesQuery } from '../../lib/schemas/dispute.ts';
import { validate } from '../validate.ts';
import { scopedRouter } from '../scope.ts';
import { disputesFilter } from '../list-filters.ts';

const merchantOf = (req: Request) => req.merchantId!;

export function disputesRouter(disputes: DisputeStore): Router {
  // Secret key only (scopedRouter's default).
  const r = scopedRouter();

  // Declared before /disputes/:dispute_id so that "list" is never taken for a dispute id.
  r.get('/disputes/list', async (req, res) => {
    const q = validate(ListDisputesQuery, req.query);
    res.json(await disputes.list(merchantOf(req), disputesFilter(q), q.limit ?? 10));
  });

  r.get('/disputes/:dispute_id', async (req, res) => {
    res.json(found(await disputes.find(merchantOf(req), req.params.dispute_id as string), 'Dispute'));
  });

  return r;
}
