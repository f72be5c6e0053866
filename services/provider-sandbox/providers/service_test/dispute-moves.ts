// How a service_test dispute may move (the sandbox's operator calls): the stage only goes forward (pre_dispute ->
// dispute -> pre_arbitration); within a stage a closed status (expired, accepted, cancelled, won, lost) does not
// change; a new stage reopens (status `opened` unless the move names one). A move that changes nothing is refused too:
// every applied move notifies the merchant, and a notification that says nothing new is noise.
import { DISPUTE_STAGES, type DisputeStageName, type DisputeStatusName } from '../../../../lib/schemas/dispute.ts';

/** The provider's words for the spec's statuses: the spec name without `dispute_`. */
export const PROVIDER_DISPUTE_STATUSES = ['opened', 'expired', 'accepted', 'cancelled', 'challenged', 'won', 'lost'] as const;
export type ProviderDisputeStatus = (typeof PROVIDER_DISPUTE_STATUSES)[number];
export const CLOSED_DISPUTE_STATUSES: readonly ProviderDisputeStatus[] = ['expired', 'accepted', 'cancelled', 'won', 'lost'];

export const providerStatus = (spec: DisputeStatusName): ProviderDisputeStatus => spec.slice('dispute_'.length) as ProviderDisputeStatus;
export const specStatus = (status: ProviderDisputeStatus): DisputeStatusName => `dispute_${status}` as DisputeStatusName;

export interface DisputePosition {
  stage: DisputeStageName;
  status: ProviderDisputeStatus;
}

export type DisputeMove = { applied: true; next: DisputePosition } | { applied: false; reason: string };

export function moveDispute(current: DisputePosition, move: { stage?: DisputeStageName; status?: ProviderDisputeStatus }): DisputeMove {
  const stage = move.stage ?? current.stage;
  const from = DISPUTE_STAGES.indexOf(current.stage);
  const to = DISPUTE_STAGES.indexOf(stage);
  if (to < from) return { applied: false, reason: `the stage only goes forward: ${current.stage} cannot become ${stage}` };
  if (to > from) return { applied: true, next: { stage, status: move.status ?? 'opened' } };
  const status = move.status ?? current.status;
  if (status === current.status) return { applied: false, reason: `the dispute is already ${status} at ${stage}` };
  if (CLOSED_DISPUTE_STATUSES.includes(current.status)) {
    return { applied: false, reason: `${current.status} is closed at ${stage}: only a later stage may reopen it` };
  }
  return { applied: true, next: { stage, status } };
}
