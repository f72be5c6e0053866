// The typed payloads of the payment-state contract, both sides: a request body <-> its per-action params message
// (BeginRequest's `params` oneof), and a ConnectorJob <-> the ConnectorJob message. The field lists live in
// proto/payment_state.proto only; the conversion follows one rule (see there): a scalar is its own field, an object
// or array is its JSON text in `<name>_json`, a null is named in `null_fields`, an absent field is not set.
import type { ConnectorJob } from '../domain/job.ts';
import type { Action } from '../proto/generated/bnpl/paymentstate/v1/Action.ts';
import type { BeginRequest, BeginRequest__Output } from '../proto/generated/bnpl/paymentstate/v1/BeginRequest.ts';
import type { ConnectorJob as ConnectorJobMessage, ConnectorJob__Output } from '../proto/generated/bnpl/paymentstate/v1/ConnectorJob.ts';

const JSON_SUFFIX = '_json';

/** The oneof member of BeginRequest that carries an action's params: the action's name in lower case. */
export type ParamsField = NonNullable<BeginRequest['params']>;
const PARAMS_FIELDS: ReadonlySet<string> = new Set<ParamsField>([
  'update',
  'confirm',
  'capture',
  'cancel',
  'incremental_authorization',
  'approve',
  'reject',
  'authenticate',
  'refund',
  'update_refund',
]);
const paramsFieldOf = (action: string): ParamsField | null => {
  const field = action.toLowerCase();
  return PARAMS_FIELDS.has(field) ? (field as ParamsField) : null;
};

/** A plain object (a validated request body) -> its params message. */
export function toParamsMessage(body: object): Record<string, unknown> {
  const msg: Record<string, unknown> = {};
  const nulls: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    if (v === null) nulls.push(k);
    else if (typeof v === 'object') msg[`${k}${JSON_SUFFIX}`] = JSON.stringify(v);
    else msg[k] = v;
  }
  if (nulls.length) msg.null_fields = nulls;
  return msg;
}

/** A params message as proto-loader decodes it -> the plain object it was made from. Throws on bad JSON. */
export function fromParamsMessage(msg: object | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!msg) return out;
  for (const [k, v] of Object.entries(msg)) {
    // `_<name>`: proto-loader's name of an optional field's synthetic oneof.
    if (k === 'null_fields' || k.startsWith('_') || v === undefined || v === null) continue;
    if (k.endsWith(JSON_SUFFIX)) out[k.slice(0, -JSON_SUFFIX.length)] = JSON.parse(v as string);
    else out[k] = v;
  }
  for (const k of (msg as { null_fields?: string[] }).null_fields ?? []) out[k] = null;
  return out;
}

/** The BeginRequest fields that carry `body` as the params of `action`. */
export function beginParams(action: Action, body: object | null | undefined): Partial<BeginRequest> {
  const field = paramsFieldOf(String(action));
  return field ? { [field]: toParamsMessage(body ?? {}) } : {};
}

/**
 * A BeginRequest's params as the plain object its action's schema parses; none given: {} (an empty body). Throws
 * when the params set are another action's, or hold JSON that does not parse.
 */
export function paramsOfBegin(req: BeginRequest__Output): Record<string, unknown> {
  if (!req.params) return {};
  if (req.params !== paramsFieldOf(req.action)) throw new Error(`params ${req.params} do not match action ${req.action}`);
  return fromParamsMessage(req[req.params]);
}

/** The job's fields that are null when the message leaves them out (jobFor always sets them). */
const NULLABLE_JOB_FIELDS = [
  'merchant_connector_id',
  'connector_transaction_id',
  'customer_email',
  'return_url',
  'merchant_order_reference_id',
] as const satisfies readonly (keyof ConnectorJob & keyof ConnectorJobMessage)[];

/** The job's fields that hold an object: carried as their JSON text in `<name>_json`. */
const JSON_JOB_FIELDS = ['order', 'capture_details', 'mandate'] as const satisfies readonly (keyof ConnectorJob)[];

export function toJobMessage(job: ConnectorJob): ConnectorJobMessage {
  const { authentication, ...rest } = job;
  const msg: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (v === null || v === undefined) continue;
    if ((JSON_JOB_FIELDS as readonly string[]).includes(k)) msg[`${k}${JSON_SUFFIX}`] = JSON.stringify(v);
    else msg[k] = v;
  }
  if (authentication) {
    const { authentication_id, ...request } = authentication;
    msg.authentication = { authentication_id, request: toParamsMessage(request) };
  }
  return msg as ConnectorJobMessage;
}

export function fromJobMessage(msg: ConnectorJob__Output): ConnectorJob {
  const { authentication, ...rest } = msg;
  const job: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (k.startsWith('_') || v === undefined || v === null) continue;
    const jsonField = JSON_JOB_FIELDS.find((f) => `${f}${JSON_SUFFIX}` === k);
    if (jsonField) job[jsonField] = JSON.parse(v as string);
    else job[k] = v;
  }
  for (const k of NULLABLE_JOB_FIELDS) job[k] ??= null;
  if (authentication) job.authentication = { authentication_id: authentication.authentication_id, ...fromParamsMessage(authentication.request) };
  return job as unknown as ConnectorJob;
}
