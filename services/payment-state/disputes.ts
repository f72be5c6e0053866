// ReportDispute: a provider's word on a dispute, recorded in the payment's transitions through the same
// compare-and-set as a connector outcome, then projected to `disputes` for the gateway's /disputes routes.
import { grpc, RpcError } from '../../lib/grpc.ts';
import { ids } from '../../lib/ids.ts';
import { log } from '../../lib/log.ts';
import type { DisputeStore } from '../../lib/dispute-store.ts';
import { disputeOutcome, disputeView, type DisputeReport, type IgnoredReport } from '../../domain/disputes.ts';
import type { CompleteReply } from '../../proto/generated/bnpl/paymentstate/v1/CompleteReply.ts';
import type { DisputeReport__Output } from '../../proto/generated/bnpl/paymentstate/v1/DisputeReport.ts';
import type { PaymentStateService } from './service.ts';

/** proto DisputeReport (empty string = not given) -> the state machine's report (null = not given). */
export function reportOf(req: DisputeReport__Output): DisputeReport {
  const s = (v: string) => v || null;
  return {
    connector_dispute_id: req.connector_dispute_id,
    amount: Number(req.amount),
    currency: s(req.currency),
    dispute_stage: req.dispute_stage,
    dispute_status: req.dispute_status,
    connector_status: s(req.connector_status),
    connector_reason: s(req.connector_reason),
    connector_reason_code: s(req.connector_reason_code),
    challenge_required_by: s(req.challenge_required_by),
    connector_created_at: s(req.connector_created_at),
    connector_updated_at: s(req.connector_updated_at),
  };
}

/**
 * Applied: the dispute was created or moved. Not applied: the report was a repeat, older than the one applied, or an
 * invalid move (logged). Either way the dispute's projection is brought to the payment's newest state, so a crash
 * between the transition and the projection is mended by the provider's next delivery.
 */
export async function reportDispute(state: Pick<PaymentStateService, 'record'>, disputes: DisputeStore, req: DisputeReport__Output): Promise<CompleteReply> {
  if (!req.merchant_id || !req.payment_id) throw new RpcError(grpc.status.INVALID_ARGUMENT, 'merchant_id and payment_id are required', 'IR_04');
  const report = reportOf(req);
  const now = new Date().toISOString();
  const disputeId = ids.dispute();
  let ignored: IgnoredReport | null = null;
  const { decision, payment } = await state.record(req.merchant_id, req.payment_id, `dispute:${report.dispute_status}`, '', (p) => {
    const d = disputeOutcome(p, report, { now, disputeId });
    ignored = d.kind === 'noop' ? d : null;
    return d;
  });
  const about = {
    payment_id: req.payment_id,
    connector_dispute_id: report.connector_dispute_id,
    dispute_stage: report.dispute_stage,
    dispute_status: report.dispute_status,
    connector_updated_at: report.connector_updated_at,
  };
  const skipped = ignored as IgnoredReport | null;
  if (skipped?.invalid) log.warn(`dispute report ignored, an invalid move: ${skipped.reason}`, about);
  else if (skipped) log.info(`dispute report ignored: ${skipped.reason}`, about);
  const row = payment.disputes?.find((d) => d.connector_dispute_id === report.connector_dispute_id);
  if (row) await disputes.project(payment.merchant_id, disputeView(row), payment.seq);
  return { applied: decision.kind === 'apply', status: payment.status };
}
