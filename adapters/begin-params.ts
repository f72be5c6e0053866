// The typed payloads of the payment-state contract, both sides: a request body <-> its per-action params message
// (BeginRequest's `params` oneof), a mandate and a saved payment method <-> their messages, and a ConnectorJob <->
// the ConnectorJob message (its order, capture details and mandate). The conversion walks the body's zod schema
// (lib/schemas/, the only validation: the receiver parses what comes out with the same schema) and follows the rules
// of proto/payment_state.proto: an object is its message, a list or typed record is held in `items`, free-form JSON
// is a google.protobuf.Struct, a null is named in its message's `null_fields`, an absent field is not set.
import { z } from 'zod';
import type { ConnectorJob } from '../domain/job.ts';
import { CustomerPaymentMethod, MandateResource } from '../lib/schemas/mandate.ts';
import {
  CancelPaymentRequest,
  CapturePaymentRequest,
  ConfirmPaymentRequest,
  IncrementalAuthorizationRequest,
  ReviewDecisionRequest,
  RoutingChoice,
  ThreeDsAuthenticationRequest,
  UpdatePaymentRequest,
} from '../lib/schemas/payment.ts';
import { CreateRefundRequest, RefundId, UpdateRefundRequest } from '../lib/schemas/refund.ts';
import type { Action } from '../proto/generated/bnpl/paymentstate/v1/Action.ts';
import type { BeginRequest, BeginRequest__Output } from '../proto/generated/bnpl/paymentstate/v1/BeginRequest.ts';
import type { ConnectorJob as ConnectorJobMessage, ConnectorJob__Output } from '../proto/generated/bnpl/paymentstate/v1/ConnectorJob.ts';
import type { CustomerPaymentMethod__Output } from '../proto/generated/bnpl/paymentstate/v1/CustomerPaymentMethod.ts';
import type { MandateResource__Output } from '../proto/generated/bnpl/paymentstate/v1/MandateResource.ts';

/** The oneof member of BeginRequest that carries an action's params: the action's name in lower case. */
export type ParamsField = NonNullable<BeginRequest['params']>;

/** Each params message's schema: the request body it carries (approve and reject share the empty one). */
export const PARAMS_SCHEMAS = {
  update: UpdatePaymentRequest,
  confirm: ConfirmPaymentRequest,
  capture: CapturePaymentRequest,
  cancel: CancelPaymentRequest,
  incremental_authorization: IncrementalAuthorizationRequest,
  approve: ReviewDecisionRequest,
  reject: ReviewDecisionRequest,
  authenticate: ThreeDsAuthenticationRequest,
  refund: CreateRefundRequest,
  update_refund: UpdateRefundRequest.extend({ refund_id: RefundId }),
} satisfies Record<ParamsField, z.ZodType>;

/**
 * The members of each union's oneof, in the order of the schema's options (a union of unrelated shapes, unlike a
 * discriminated one, names its members in the proto only).
 */
export const UNION_MEMBERS = new Map<z.ZodType, readonly string[]>([[RoutingChoice, ['connector_name', 'account']]]);

type Wire = Record<string, unknown>;
type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; catchall?: z.ZodType; shape?: Record<string, z.ZodType> };
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** How a schema is carried. */
export type WireKind = 'scalar' | 'object' | 'list' | 'map' | 'struct' | 'value' | 'union' | 'tagged';

const defOf = (t: z.ZodType) => (t as unknown as { def: Def }).def;

/** The schema under its optional, nullable and default wrappers and before its transforms. */
export function bare(t: z.ZodType): z.ZodType {
  for (;;) {
    const d = defOf(t);
    if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'readonly') t = d.innerType!;
    else if (d.type === 'pipe') t = d.in!;
    else return t;
  }
}

const FREE_FORM = new Set(['unknown', 'any']);

export function wireKind(t: z.ZodType): WireKind {
  const d = defOf(t) as Def & { valueType?: z.ZodType; discriminator?: string };
  switch (d.type) {
    case 'object':
      // An object that keeps keys it does not declare is free-form.
      return d.catchall && defOf(d.catchall).type !== 'never' ? 'struct' : 'object';
    case 'array':
      return 'list';
    case 'record':
      return FREE_FORM.has(defOf(bare(d.valueType!)).type) ? 'struct' : 'map';
    case 'union':
      return d.discriminator ? 'tagged' : 'union';
    default:
      return FREE_FORM.has(d.type) ? 'value' : 'scalar';
  }
}

const shapeOf = (t: z.ZodType) => defOf(t).shape!;
const elementOf = (t: z.ZodType) => (defOf(t) as unknown as { element: z.ZodType }).element;
const valueTypeOf = (t: z.ZodType) => (defOf(t) as unknown as { valueType: z.ZodType }).valueType;
const optionsOf = (t: z.ZodType) => (defOf(t) as unknown as { options: z.ZodType[] }).options;
const discriminatorOf = (t: z.ZodType) => (defOf(t) as unknown as { discriminator: string }).discriminator;
/** The union member for a value: the first option of the value's sort (a string, or an object). */
const optionFor = (t: z.ZodType, v: unknown) =>
  optionsOf(t).findIndex((o) => (['object', 'tagged', 'struct', 'map'].includes(wireKind(bare(o))) ? typeof v === 'object' : typeof v !== 'object'));

/** How the values of one schema go to their message field and back (neither side sees null nor undefined). */
interface Codec {
  encode(v: unknown): unknown;
  decode(m: unknown): unknown;
}
interface ObjectCodec {
  encode(v: Record<string, unknown>): Wire;
  decode(m: Wire): Record<string, unknown>;
}
const SCALAR: Codec = { encode: (v) => v, decode: (m) => m };

// Built once per schema: the walk is the converter's whole cost after protobuf's own.
const codecs = new WeakMap<z.ZodType, Codec>();
function codecOf(t: z.ZodType): Codec {
  const s = bare(t);
  let c = codecs.get(s);
  if (!c) {
    c = buildCodec(s);
    codecs.set(s, c);
  }
  return c;
}

function buildCodec(s: z.ZodType): Codec {
  switch (wireKind(s)) {
    case 'scalar':
      return SCALAR;
    case 'object':
      return objectCodec(s) as Codec;
    case 'list': {
      const item = codecOf(elementOf(s));
      return { encode: (v) => ({ items: (v as unknown[]).map(item.encode) }), decode: (m) => ((m as Wire).items as unknown[]).map(item.decode) };
    }
    case 'map': {
      const value = codecOf(valueTypeOf(s));
      return { encode: (v) => ({ items: mapValues(v as Wire, value.encode) }), decode: (m) => mapValues((m as Wire).items as Wire, value.decode) };
    }
    case 'struct':
      return { encode: (v) => toStruct(v as Wire), decode: (m) => fromStruct(m as Wire) };
    case 'value':
      return { encode: toValue, decode: (m) => fromValue(m as Wire) };
    case 'union': {
      const members = UNION_MEMBERS.get(s);
      if (!members) throw new Error('a union without its members in UNION_MEMBERS');
      const options = optionsOf(s).map(codecOf);
      return {
        encode: (v) => {
          const i = optionFor(s, v);
          if (i < 0) throw new Error(`no union member for ${JSON.stringify(v)}`);
          return { [members[i]]: options[i].encode(v) };
        },
        decode: (m) => {
          const i = members.findIndex((member) => (m as Wire)[member] != null);
          if (i < 0) throw new Error('a union with no member set');
          return options[i].decode((m as Wire)[members[i]]);
        },
      };
    }
    case 'tagged': {
      // One member per option, named for its tag, holding the rest of the object.
      const key = discriminatorOf(s);
      const tagged = optionsOf(s).map((o) => ({ tag: (defOf(shapeOf(o)[key]) as unknown as { values: unknown[] }).values[0], codec: objectCodec(o) }));
      return {
        encode: (v) => {
          const { [key]: tag, ...rest } = v as Wire;
          const option = tagged.find((o) => o.tag === tag);
          if (!option) throw new Error(`${key}: no option ${String(tag)}`);
          return { [String(tag)]: option.codec.encode(rest) };
        },
        decode: (m) => {
          const option = tagged.find((o) => (m as Wire)[String(o.tag)] != null);
          if (!option) throw new Error(`${key}: no option set`);
          return { [key]: option.tag, ...option.codec.decode((m as Wire)[String(option.tag)] as Wire) };
        },
      };
    }
  }
}

function objectCodec(s: z.ZodType): ObjectCodec {
  const fields = new Map(Object.entries(shapeOf(s)).map(([k, t]) => [k, codecOf(t)]));
  // A strict schema refuses an undeclared key (the sender parsed with it); a stripping one drops it, as it would.
  const strict = defOf(s).catchall !== undefined;
  return {
    encode(v) {
      const msg: Wire = {};
      let nulls: string[] | undefined;
      for (const k of Object.keys(v)) {
        const x = v[k];
        if (x === undefined) continue;
        const codec = fields.get(k);
        if (!codec) {
          if (strict) throw new Error(`${k} is not a field of the schema`);
        } else if (x === null) (nulls ??= []).push(k);
        else msg[k] = codec === SCALAR ? x : codec.encode(x);
      }
      if (nulls) msg.null_fields = nulls;
      return msg;
    },
    decode(m) {
      const out: Record<string, unknown> = {};
      for (const [k, codec] of fields) {
        const x = m[k];
        if (x !== undefined && x !== null) out[k] = codec === SCALAR ? x : codec.decode(x);
      }
      for (const k of (m.null_fields as string[] | undefined) ?? []) out[k] = null;
      return out;
    },
  };
}

const mapValues = (o: Record<string, unknown>, f: (v: unknown) => unknown) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)]));

// google.protobuf.Struct and Value as proto-loader carries them (the well-known types' names are camelCase).
function toValue(v: unknown): Wire {
  switch (typeof v) {
    case 'string':
      return { stringValue: v };
    case 'number':
      return { numberValue: v };
    case 'boolean':
      return { boolValue: v };
    case 'object':
      if (v === null) return { nullValue: 'NULL_VALUE' };
      return Array.isArray(v)
        ? { listValue: { values: v.map((x) => toValue(x === undefined ? null : x)) } }
        : { structValue: toStruct(v as Record<string, unknown>) };
    default:
      throw new Error(`${typeof v} is not JSON`);
  }
}

function toStruct(o: Record<string, unknown>): Wire {
  // As JSON text: an undefined property is left out. fromEntries: a "__proto__" key is a key like any other.
  return { fields: Object.fromEntries(Object.keys(o).flatMap((k) => (o[k] === undefined ? [] : [[k, toValue(o[k])]]))) };
}

function fromValue(v: Wire): Json {
  switch (v.kind) {
    case 'stringValue':
      return v.stringValue as string;
    case 'numberValue':
      return v.numberValue as number;
    case 'boolValue':
      return v.boolValue as boolean;
    case 'structValue':
      return fromStruct(v.structValue as Wire);
    case 'listValue':
      return ((v.listValue as Wire).values as Wire[]).map(fromValue);
    default:
      return null;
  }
}

const fromStruct = (s: Wire): { [k: string]: Json } => mapValues(s.fields as Wire, (v) => fromValue(v as Wire)) as { [k: string]: Json };

const PARAMS_FIELDS: ReadonlySet<string> = new Set(Object.keys(PARAMS_SCHEMAS));
const paramsFieldOf = (action: string): ParamsField | null => {
  const field = action.toLowerCase();
  return PARAMS_FIELDS.has(field) ? (field as ParamsField) : null;
};

/** A plain object (a body `schema` validated) -> its message. Throws on a key a strict schema does not declare. */
export function toParamsMessage(schema: z.ZodType, body: object): Wire {
  return (codecOf(schema) as unknown as ObjectCodec).encode(body as Record<string, unknown>);
}

/** A message as proto-loader decodes it -> the plain object it was made from ({} for none). */
export function fromParamsMessage(schema: z.ZodType, msg: object | null | undefined): Record<string, unknown> {
  return msg ? (codecOf(schema) as unknown as ObjectCodec).decode(msg as Wire) : {};
}

/** The BeginRequest fields that carry `body` as the params of `action`. */
export function beginParams(action: Action, body: object | null | undefined): Partial<BeginRequest> {
  const field = paramsFieldOf(String(action));
  return field ? { [field]: toParamsMessage(PARAMS_SCHEMAS[field], body ?? {}) } : {};
}

/**
 * A BeginRequest's params as the plain object its action's schema parses; none given: {} (an empty body). Throws
 * when the params set are another action's.
 */
export function paramsOfBegin(req: BeginRequest__Output): Record<string, unknown> {
  if (!req.params) return {};
  if (req.params !== paramsFieldOf(req.action)) throw new Error(`params ${req.params} do not match action ${req.action}`);
  return fromParamsMessage(PARAMS_SCHEMAS[req.params], req[req.params]);
}

/** The BeginRequest fields that carry the mandate and the saved payment method a confirm charges on. */
export function beginMandate(held: { mandate: MandateResource | null; paymentMethod: CustomerPaymentMethod | null }): Partial<BeginRequest> {
  return {
    mandate: held.mandate ? toParamsMessage(MandateResource, held.mandate) : null,
    payment_method: held.paymentMethod ? toParamsMessage(CustomerPaymentMethod, held.paymentMethod) : null,
  };
}

/** The mandate and saved payment method of a Begin as plain objects (null: none), for their schemas to parse. */
export function mandateOfBegin(req: Pick<BeginRequest__Output, 'mandate' | 'payment_method'>): { mandate: unknown; paymentMethod: unknown } {
  const of = (schema: z.ZodType, m: MandateResource__Output | CustomerPaymentMethod__Output | null) => (m ? fromParamsMessage(schema, m) : null);
  return { mandate: of(MandateResource, req.mandate), paymentMethod: of(CustomerPaymentMethod, req.payment_method) };
}

/** The job's fields that are null when the message leaves them out (jobFor always sets them). */
const NULLABLE_JOB_FIELDS = [
  'merchant_connector_id',
  'connector_transaction_id',
  'customer_email',
  'return_url',
  'merchant_order_reference_id',
] as const satisfies readonly (keyof ConnectorJob & keyof ConnectorJobMessage)[];

const Free = z.record(z.string(), z.unknown());
const text = z.string().nullable();
/**
 * The shapes of the job's object fields (domain/job.ts, domain/payment.ts), for the codec: transport only, nothing
 * parses a job with them (payment-state made it). Strict, so that a field added to the domain and not here fails
 * loudly (and tsc: see the checks below).
 */
export const JOB_SCHEMAS = {
  order: z.strictObject({
    customer: z.strictObject({ id: text, name: text, email: text, phone: text, phone_country_code: text }).nullable(),
    billing: Free.nullable(),
    shipping: Free.nullable(),
    order_details: z.array(Free).nullable(),
    order_tax_amount: z.number().int().nullable(),
    metadata: Free.nullable(),
    browser_info: Free.nullable(),
    description: text,
    payment_method_type: text,
    birth_date: text,
    gender: text,
    locale: text,
  }),
  capture_details: z.strictObject({
    capture_metadata: Free.nullable(),
    metadata: Free.nullable(),
    order_details: z.array(z.unknown()).nullable(),
    statement_descriptor: z.strictObject({ name: text, suffix: text, prefix: text }).optional(),
  }),
  mandate: z.strictObject({ kind: z.enum(['new', 'setup', 'recurring']), mandate_id: z.string(), connector_mandate_id: text }),
} satisfies { [K in keyof ConnectorJob]?: z.ZodType<NonNullable<ConnectorJob[K]>> };
type JobPart = keyof typeof JOB_SCHEMAS;
// Both ways: a field the domain adds to a job part and this schema lacks is a type error.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _jobSchemasMatch: { [K in JobPart]: Same<z.infer<(typeof JOB_SCHEMAS)[K]>, NonNullable<ConnectorJob[K]>> } = {
  order: true,
  capture_details: true,
  mandate: true,
};
void _jobSchemasMatch;
const JOB_PARTS = Object.keys(JOB_SCHEMAS) as JobPart[];

export function toJobMessage(job: ConnectorJob): ConnectorJobMessage {
  const { authentication, ...rest } = job;
  const msg: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (v === null || v === undefined) continue;
    msg[k] = k in JOB_SCHEMAS ? toParamsMessage(JOB_SCHEMAS[k as JobPart], v as object) : v;
  }
  if (authentication) {
    const { authentication_id, ...request } = authentication;
    msg.authentication = { authentication_id, request: toParamsMessage(ThreeDsAuthenticationRequest, request) };
  }
  return msg as ConnectorJobMessage;
}

export function fromJobMessage(msg: ConnectorJob__Output): ConnectorJob {
  const { authentication, ...rest } = msg;
  const job: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (k.startsWith('_') || v === undefined || v === null) continue;
    job[k] = JOB_PARTS.includes(k as JobPart) ? fromParamsMessage(JOB_SCHEMAS[k as JobPart], v as object) : v;
  }
  for (const k of NULLABLE_JOB_FIELDS) job[k] ??= null;
  if (authentication)
    job.authentication = { authentication_id: authentication.authentication_id, ...fromParamsMessage(ThreeDsAuthenticationRequest, authentication.request) };
  return job as unknown as ConnectorJob;
}
