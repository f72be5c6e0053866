// Refunds: create (ARCHITECTURE.md "Refund create"), retrieve (4.10), update (4.9), list (4.8). Secret key only.
// A refund is an operation on its payment: payment-state decides it against the captured amount and records it in
// the payment's transitions; the refunds collection serves lookups by refund_id and the list.
import type { Request, Router } from 'express';
import { z } from 'zod';
import { ApiError, errors } from '../../lib/errors.ts';
import { canExist, ids, requestId } from '../../lib/ids.ts';
import { config } from '../../lib/config.ts';
import type { ListedRefund } from '../../adapters/refund-store.ts';
import {
  CreateRefundRequest,
  ListRefundsFilter,
  REFUND_FIELDS,
  RefundId,
  UpdateRefundRequest,
  type CreateRefundBody,
  type RefundResource,
} from '../../lib/schemas/refund.ts';
import { requestHash } from '../../domain/intent.ts';
import { jobFor } from '../../domain/job.ts';
import { refundView } from '../../domain/refunds.ts';
import type { StoredPayment } from '../../domain/payment.ts';
import { runOperation, type Deps } from '../operations.ts';
import { validate } from '../validate.ts';
import { refundsFilter } from '../list-filters.ts';
import { scopedRouter } from '../scope.ts';
import { currentTiming, timed } from '../server-timing.ts';

const merchantOf = (req: Request) => req.merchantId!;
const RetrieveQuery = z.strictObject({ force_sync: z.enum(['true', 'false']).optional() });

/** The refund as its payment shows it; 404 when the payment does not hold it. */
function refundIn(p: StoredPayment | null, refundId: string): RefundResource {
  const row = p?.refunds?.find((r) => r.refund_id === refundId);
  if (!row) throw errors.notFound('Refund');
  return refundView(row);
}

const listView = (d: ListedRefund): RefundResource => Object.fromEntries(REFUND_FIELDS.map((k) => [k, d[k] ?? null])) as RefundResource;

/**
 * A refund of the merchant's payment (POST /refunds, and the dashboard's refund form): the refund_id claimed, then
 * payment-state asked. Under an Idempotency-Key (lib/ids.ts idempotencyScope) the refund_id and operation id derive
 * from it, so the same request again finds the refund it made.
 */
export async function createRefund(deps: Deps, merchantId: string, body: CreateRefundBody): Promise<RefundResource> {
  // A payment_id no payment can have names nothing: 404, as an unknown one (nothing claimed).
  if (!canExist('payment', body.payment_id)) throw new ApiError(404, 'HE_02', 'Payment does not exist in our records', 'payment_id');
  const params = { ...body, refund_id: body.refund_id ?? requestId('ref', 'refund', ids.refund) };
  const hash = requestHash(params);
  // One refund_id names one refund of the merchant: claimed before payment-state is asked.
  const earlier = await deps.refunds.claim(merchantId, params.refund_id, params.payment_id, hash);
  if (earlier && (earlier.request_hash !== hash || earlier.payment_id !== params.payment_id)) {
    throw errors.duplicate('The refund with the specified refund_id already exists in our records', 'refund_id');
  }
  let payment: StoredPayment;
  try {
    payment = await runOperation(deps, merchantId, params.payment_id, 'REFUND', params);
  } catch (err) {
    // Refused or not started: the refund does not exist, and its id is free again.
    if (!earlier && err instanceof ApiError && (err.status < 500 || err.status === 503)) await deps.refunds.release(merchantId, params.refund_id);
    throw err;
  }
  return refundIn(payment, params.refund_id);
}

export function refundsRouter(deps: Deps): Router {
  const r = scopedRouter();

  /** The payment a refund id names (for this merchant), or 404. */
  async function paymentOf(req: Request, refundId: string): Promise<StoredPayment> {
    if (!RefundId.safeParse(refundId).success) throw errors.notFound('Refund');
    const doc = await timed('store', deps.refunds.find(merchantOf(req), refundId));
    let payment = doc ? await timed('store', deps.store.find(merchantOf(req), doc.payment_id)) : null;
    // The row is written beside the payment's projection: a row ahead of it (that write still running, or its writer
    // died before it) is answered from the newest transition, as the list shows it.
    if (payment && doc?.payment_seq !== undefined && doc.payment_seq > payment.seq) {
      payment = (await timed('store', deps.store.latest(merchantOf(req), doc.payment_id))) ?? payment;
    }
    if (!payment?.refunds?.some((x) => x.refund_id === refundId)) throw errors.notFound('Refund');
    return payment;
  }

  r.post('/refunds', async (req, res) => {
    res.json(await createRefund(deps, merchantOf(req), validate(CreateRefundRequest, req.body)));
  });

  // Declared before /refunds/:refund_id so that "list" is never taken for a refund id.
  r.post('/refunds/list', async (req, res) => {
    const f = validate(ListRefundsFilter, req.body);
    const { data, total } = await timed(
      'store',
      deps.refunds.list(merchantOf(req), refundsFilter(f), { limit: f.limit ?? 10, skip: f.offset ?? 0, count: true }),
    );
    res.json({ count: data.length, total_count: total, data: data.map(listView) });
  });

  r.get('/refunds/:refund_id', async (req, res) => {
    const { force_sync } = validate(RetrieveQuery, req.query);
    const refundId = req.params.refund_id as string;
    const payment = await paymentOf(req, refundId);
    const op = payment.operations.find((o) => o.kind === 'refund' && o.ref === refundId && o.open);
    if (force_sync !== 'true' || !op) return res.json(refundIn(payment, refundId));
    // Ask the provider now, and answer with what it says (within the usual wait).
    const answer = deps.waiter.wait(op.operation_id, config.confirmWaitMs).done;
    await deps.queues.enqueueSync(jobFor(payment, op, 'sync'));
    const event = await answer;
    currentTiming()?.addReported(event?.timing);
    res.json(refundIn(event?.payment ?? (await deps.store.find(merchantOf(req), payment.payment_id)), refundId));
  });

  r.post('/refunds/:refund_id', async (req, res) => {
    const body = validate(UpdateRefundRequest, req.body);
    const refundId = req.params.refund_id as string;
    const payment = await paymentOf(req, refundId);
    const updated = await runOperation(deps, merchantOf(req), payment.payment_id, 'UPDATE_REFUND', { ...body, refund_id: refundId });
    res.json(refundIn(updated, refundId));
  });

  return r;
}
