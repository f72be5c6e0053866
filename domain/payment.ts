// The payment model: the stored payment, its operations, connector outcomes and the decisions the state machine
// returns. Types and small pure helpers only; no I/O. Every process may import this.
import type { ConnectorName, PaymentStatusName } from '../lib/schemas/common.ts';
import type { PaymentResource, RoutingAlgorithm, ThreeDsAuthenticationBody, THREE_DS_TRANS_STATUSES } from '../lib/schemas/payment.ts';
import type { RefundResource } from '../lib/schemas/refund.ts';
import type { DisputeResource } from '../lib/schemas/dispute.ts';
import type { PaymentMandate } from './mandates.ts';

export type OutcomeKind = 'AUTHORIZED' | 'CAPTURED' | 'DECLINED' | 'CUSTOMER_ACTION' | 'PENDING' | 'VOIDED' | 'FAILED' | 'AUTHENTICATED' | 'REFUNDED';

/** What a 3DS server answered for an authenticate operation (proto Authentication); null where it said nothing. */
export interface AuthenticationResult {
  trans_status: (typeof THREE_DS_TRANS_STATUSES)[number] | null;
  trans_status_reason: string | null;
  three_dsserver_trans_id: string | null;
  acs_trans_id: string | null;
  acs_reference_number: string | null;
  acs_url: string | null;
  challenge_request: string | null;
  acs_signed_content: string | null;
  three_ds_requestor_url: string | null;
  ds_trans_id: string | null;
  eci: string | null;
  message_version: string | null;
}

export interface Outcome {
  kind: OutcomeKind;
  connector_transaction_id?: string;
  connector_reference_id?: string;
  redirect_url?: string;
  error_code?: string;
  error_message?: string;
  unified_code?: string;
  unified_message?: string;
  /** For an authenticate operation: the 3DS server's answer. */
  authentication?: AuthenticationResult;
  /** For an authorize that set up a mandate (issue 22): the provider's reference to charge the customer again. */
  connector_mandate_id?: string;
}

export type OperationKind = 'authorize' | 'capture' | 'void' | 'incremental_authorization' | 'authenticate' | 'refund';
export interface Operation {
  operation_id: string;
  kind: OperationKind;
  /** attempt_id for authorize and void, capture_id for capture, authorization_id for incremental authorization, authentication_id for authenticate, refund_id for refund. */
  ref: string;
  amount: number;
  connector: ConnectorName;
  open: boolean;
  /** Where a failed capture or void returns the payment. */
  status_before: PaymentStatusName;
  last_outcome: OutcomeKind | null;
  created_at: string;
  /** For a capture: what the provider may need with it (invoice data, the capture's order lines and metadata). */
  capture_details?: CaptureDetails;
}

/** A capture request's fields a provider may need (an invoice number, the lines captured). */
export interface CaptureDetails {
  capture_metadata: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  order_details: unknown[] | null;
  /** The capture request's statement descriptors (spec 4.3), kept with the capture; no connector sends them. */
  statement_descriptor?: { name: string | null; suffix: string | null; prefix: string | null };
}

/** A refund as the payment keeps it: the resource, and what only we need. */
export type RefundRow = RefundResource & {
  /** The provider's id of the refund, once it answered (status syncs read it). */
  connector_refund_id: string | null;
  /** The create request's canonical hash: the same refund_id with another body is a conflict. */
  request_hash: string;
};

/** A dispute as the payment keeps it (the whole resource; the payment shows spec 2.10's subset). */
export type DisputeRow = DisputeResource;

/** The stored payment: the API resource plus what payment-state keeps to decide the next transition. */
export type StoredPayment = Omit<PaymentResource, 'refunds' | 'disputes'> & {
  refunds: RefundRow[] | null;
  disputes: DisputeRow[] | null;
  /** Request fields kept for later operations that the resource does not show. */
  amount_to_capture: number | null;
  routing: RoutingAlgorithm | null;
  request_incremental_authorization: boolean | null;
  /** Request fields kept with the payment that nothing acts on yet (REQUEST_EXTRAS). */
  request_extras?: Record<string, unknown>;
  /** Our own manual review applies: authorize only, then wait in requires_merchant_action for the merchant. */
  review_hold?: boolean;
  /** The external 3DS authentication of the current attempt: what the customer's device sent, what the 3DS server answered. */
  three_ds?: ThreeDsRecord | null;
  /** The payment's mandate part (issue 22): what it sets up (new, setup) or charges on (recurring); set at confirm. */
  mandate?: PaymentMandate | null;
  seq: number;
  request_hash: string;
  operations: Operation[];
  in_flight: boolean;
  in_flight_since: string | null;
  sweep_key?: typeof SWEEP_KEY;
};

export interface ThreeDsRecord {
  authentication_id: string;
  request: Omit<ThreeDsAuthenticationBody, 'client_secret'>;
  result: AuthenticationResult | null;
  /** The 3DS server asked for a challenge at some point (authentication_flow challenge, not frictionless). */
  challenged: boolean;
}

export type Refusal = { kind: 'refused'; code: string; message: string; param?: string };
export type Decision =
  | Refusal
  | { kind: 'replay'; operation: Operation }
  | { kind: 'noop' }
  | {
      kind: 'apply';
      payment: StoredPayment;
      operation?: Operation;
      needsConnector: boolean;
      /**
       * An operation this outcome started (authorization after a successful 3DS authentication; the capture after an
       * authorization where the connector's automatic capture is a follow-up): enqueue its job.
       */
      followUp?: Operation;
    };

/** The merchant's settings a confirm consults (proto MerchantPolicy). */
export interface MerchantPolicy {
  manual_review: boolean;
  manual_review_amount_at_least: number;
}
export const NO_POLICY: MerchantPolicy = { manual_review: false, manual_review_amount_at_least: 0 };

/** The value of `sweep_key`, a field only payments with an operation in flight carry (indexed for the sweeper). */
export const SWEEP_KEY = 'in_flight';

export function netAmount(p: Pick<PaymentResource, 'amount' | 'order_tax_amount' | 'surcharge_details'>): number {
  return p.amount + (p.surcharge_details?.surcharge_amount ?? 0) + (p.surcharge_details?.tax_amount ?? 0) + (p.order_tax_amount ?? 0);
}
