// The connector job for an operation: what a worker needs to call the provider. Pure; adapters/queue.ts carries it.
import { createHash } from 'node:crypto';
import type { ConnectorName } from '../lib/schemas/common.ts';
import { followUpCapture } from './capabilities.ts';
import type { CaptureDetails, Operation, OperationKind, StoredPayment, ThreeDsRecord } from './payment.ts';
import { automaticCapture } from './transitions.ts';

export interface ConnectorJob {
  merchant_id: string;
  payment_id: string;
  operation_id: string;
  kind: OperationKind;
  connector: ConnectorName;
  /** The merchant's connector account whose credentials the call uses; null: the sandbox default. */
  merchant_connector_id?: string | null;
  amount: number;
  currency: string;
  capture_method: string;
  /** The reference the provider knows the payment by (set after authorization). */
  connector_transaction_id: string | null;
  /** Where the sandbox reads magic values: customer.email, else email, else billing.email. */
  customer_email: string | null;
  return_url: string | null;
  merchant_order_reference_id: string | null;
  /** 'execute' calls the provider's operation; 'sync' asks the provider how an earlier call ended. */
  mode: 'execute' | 'sync';
  sync_round: number;
  /** A one-off status sync (force_sync): report what the provider says and stop, whatever it says. */
  once?: boolean;
  /**
   * For an authenticate operation: what the customer's device sent for the 3DS server. The 3DS server's
   * transaction id, once known, is the job's connector_transaction_id (for status syncs).
   */
  authentication?: ThreeDsRecord['request'] & { authentication_id: string };
  /**
   * What a provider needs to know about the order and the customer (names, addresses, order lines, tax, the spec 2.5
   * BNPL metadata, the device): set for authorize jobs, and for every job of a connector whose later calls repeat
   * the order (absent for service_test's jobs, which need none of it).
   */
  order?: ProviderOrder;
  /** For a capture: the capture request's invoice data, metadata and order lines. */
  capture_details?: CaptureDetails;
  /** For a refund: our refund id, the provider's once known (status syncs), the reason, the capture refunded within. */
  refund_id?: string;
  connector_refund_id?: string;
  reason?: string;
  capture_id?: string;
  /**
   * For a refund: the provider's id of the capture refunded (its invoice at providers that credit an invoice): the
   * capture named, else the latest charged one; for a payment captured with its authorization (no capture rows), the
   * authorization's reference (reference_id).
   */
  connector_capture_id?: string;
  /**
   * For a capture, void, incremental authorization or refund: how many of those the provider accepted on this payment
   * before this one (providers that number the calls on a transaction, e.g. PAYONE's sequencenumber).
   */
  follow_ups_before?: number;
  /**
   * For an authorize (issue 22): the mandate this payment sets up ('new', or 'setup' for a zero authorization) or
   * charges on ('recurring': off-session, no customer step, on the provider's reference connector_mandate_id).
   * Absent for a payment without one. Only a connector whose manifest declares `mandates` gets one.
   */
  mandate?: { kind: 'new' | 'setup' | 'recurring'; mandate_id: string; connector_mandate_id: string | null };
}

/**
 * A provider's notification, verified and recorded by the gateway (collection provider_notifications), for the
 * connector's worker to read with its notification flow. Beside ConnectorJob on the connector's queue; its job id is
 * notificationJobId, so the same notification queued twice runs once.
 */
export interface NotificationJob {
  type: 'notification';
  merchant_id: string;
  /** The account the provider sent it to (the path's id; DEFAULT_ACCOUNT_ID for the default account). */
  merchant_connector_id: string;
  connector: ConnectorName;
  /** The raw body exactly as received (what the signature covered). */
  body: string;
  /** sha256 (hex) of the raw body (preceded by the URL's query when `query` is given): with merchant and account, the
   * notification's identity in the inbox. */
  body_sha256: string;
  /** The URL's query parameters, for an unsigned scheme only: a provider may name the object there and not in the
   * body (Svea's push fills the order id into its pushUri). */
  query?: Record<string, string>;
  received_at: string;
}

export const isNotificationJob = (data: ConnectorJob | NotificationJob): data is NotificationJob => (data as NotificationJob).type === 'notification';

/** One job per (merchant, account, body): BullMQ ids may not hold ':', so the parts are hashed. */
export const notificationJobId = (j: Pick<NotificationJob, 'merchant_id' | 'merchant_connector_id' | 'body_sha256'>) =>
  `ntf_${createHash('sha256').update(`${j.merchant_id}\n${j.merchant_connector_id}\n${j.body_sha256}`).digest('hex')}`;

/** The order and customer as a provider sees them (the payment's own fields; free-form parts as given). */
export interface ProviderOrder {
  customer: { id: string | null; name: string | null; email: string | null; phone: string | null; phone_country_code: string | null } | null;
  billing: Record<string, unknown> | null;
  shipping: Record<string, unknown> | null;
  order_details: Record<string, unknown>[] | null;
  order_tax_amount: number | null;
  /** The payment's metadata: spec 2.5's BNPL fields (birth_date, buyer_type, company_name, legal_form, net_term...). */
  metadata: Record<string, unknown> | null;
  browser_info: Record<string, unknown> | null;
  description: string | null;
  payment_method_type: string | null;
  birth_date: string | null;
  gender: string | null;
  locale: string | null;
}

export function orderOf(p: StoredPayment): ProviderOrder {
  const c = p.customer;
  return {
    customer: {
      id: c?.id ?? p.customer_id,
      name: c?.name ?? p.name,
      email: c?.email ?? p.email,
      phone: c?.phone ?? p.phone,
      phone_country_code: c?.phone_country_code ?? null,
    },
    billing: (p.billing as Record<string, unknown> | null) ?? null,
    shipping: (p.shipping as Record<string, unknown> | null) ?? null,
    order_details: (p.order_details as Record<string, unknown>[] | null) ?? null,
    order_tax_amount: p.order_tax_amount,
    metadata: p.metadata ?? null,
    browser_info: (p.browser_info as Record<string, unknown> | null) ?? null,
    description: p.description,
    payment_method_type: p.payment_method_type,
    birth_date: p.birth_date,
    gender: p.gender,
    locale: p.locale,
  };
}

export function jobFor(p: StoredPayment, op: Operation, mode: ConnectorJob['mode'] = 'execute'): ConnectorJob {
  return {
    merchant_id: p.merchant_id,
    payment_id: p.payment_id,
    operation_id: op.operation_id,
    kind: op.kind,
    connector: op.connector,
    merchant_connector_id: p.merchant_connector_id ?? null,
    amount: op.amount,
    currency: p.currency,
    // Only authorized at the provider: a payment held for our manual review (the capture follows the merchant's
    // approval), and an automatic capture through a connector that captures by a call of its own (a follow-up).
    capture_method:
      p.review_hold || (op.kind === 'authorize' && automaticCapture(p.capture_method) && followUpCapture(op.connector))
        ? 'manual'
        : (p.capture_method ?? 'automatic'),
    connector_transaction_id: p.connector_transaction_id,
    customer_email: p.customer?.email ?? p.email ?? (p.billing as { email?: string } | null)?.email ?? null,
    return_url: p.return_url,
    merchant_order_reference_id: p.merchant_order_reference_id,
    mode,
    sync_round: 0,
    ...(op.kind === 'authenticate' && p.three_ds ? authenticationJob(p, p.three_ds) : {}),
    ...(op.kind === 'refund' ? refundJob(p, op) : {}),
    // service_test needs none of the order; every real provider's authorization does, and some repeat it later.
    ...(op.connector !== 'service_test' ? { order: orderOf(p) } : {}),
    ...(op.capture_details ? { capture_details: op.capture_details } : {}),
    ...(FOLLOW_UPS.has(op.kind) ? { follow_ups_before: followUpsBefore(p, op) } : {}),
    ...(op.kind === 'authorize' && p.mandate
      ? { mandate: { kind: p.mandate.kind, mandate_id: p.mandate.mandate_id, connector_mandate_id: p.mandate.connector_mandate_id } }
      : {}),
  };
}

const FOLLOW_UPS = new Set<OperationKind>(['capture', 'void', 'incremental_authorization', 'refund']);
const ACCEPTED = new Set(['AUTHORIZED', 'CAPTURED', 'VOIDED', 'REFUNDED']);

/** The follow-ups started before `op` (operations are kept in the order they began) that the provider accepted. */
function followUpsBefore(p: StoredPayment, op: Operation): number {
  const at = p.operations.findIndex((o) => o.operation_id === op.operation_id);
  return p.operations
    .slice(0, at < 0 ? p.operations.length : at)
    .filter((o) => FOLLOW_UPS.has(o.kind) && o.last_outcome !== null && ACCEPTED.has(o.last_outcome)).length;
}

function refundJob(
  p: StoredPayment,
  op: Operation,
): Pick<ConnectorJob, 'refund_id' | 'connector_refund_id' | 'reason' | 'capture_id' | 'connector_capture_id'> {
  const r = p.refunds?.find((x) => x.refund_id === op.ref);
  const charged = (p.captures ?? []).filter((c) => c.status === 'charged');
  const capture = r?.capture_id ? charged.find((c) => c.capture_id === r.capture_id) : charged.at(-1);
  const connectorCaptureId = capture?.connector_capture_id ?? (charged.length === 0 ? p.reference_id : null);
  return {
    ...(connectorCaptureId ? { connector_capture_id: connectorCaptureId } : {}),
    refund_id: op.ref,
    ...(r?.connector_refund_id ? { connector_refund_id: r.connector_refund_id } : {}),
    ...(r?.reason ? { reason: r.reason } : {}),
    ...(r?.capture_id ? { capture_id: r.capture_id } : {}),
    ...(capture?.connector_capture_id ? { connector_capture_id: capture.connector_capture_id } : {}),
  };
}

/** The 3DS server needs the device's data, and the customer's browser for the BRW channel. */
function authenticationJob(p: StoredPayment, t: ThreeDsRecord): Pick<ConnectorJob, 'authentication' | 'connector_transaction_id'> {
  return {
    connector_transaction_id: t.result?.three_dsserver_trans_id ?? null,
    authentication: {
      authentication_id: t.authentication_id,
      ...t.request,
      browser_info: t.request.browser_info ?? (p.browser_info as ThreeDsRecord['request']['browser_info']) ?? null,
    },
  };
}
