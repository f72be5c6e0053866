// The typed Begin params, mandate and ConnectorJob go through protobuf and come back as the same plain objects, and
// proto/payment_state.proto cannot drift from the zod schemas: every message that carries a schema object has one
// field per key of it, of a kind that carries the key's type, down to the last nested object. Over the wire means the
// method's own (de)serializers, from proto-loader with the runtime's options (lib/grpc.ts).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MessageTypeDefinition, MethodDefinition } from '@grpc/proto-loader';
import {
  JOB_SCHEMAS,
  PARAMS_SCHEMAS,
  UNION_MEMBERS,
  bare,
  beginMandate,
  beginParams,
  fromJobMessage,
  fromParamsMessage,
  mandateOfBegin,
  paramsOfBegin,
  toJobMessage,
  toParamsMessage,
  wireKind,
  type ParamsField,
} from './begin-params.ts';
import { paymentStateDefinition } from '../lib/grpc.ts';
import { CustomerPaymentMethod, MandateResource } from '../lib/schemas/mandate.ts';
import type { ConnectorJob } from '../domain/job.ts';
import type { Action } from '../proto/generated/bnpl/paymentstate/v1/Action.ts';
import type { BeginRequest, BeginRequest__Output } from '../proto/generated/bnpl/paymentstate/v1/BeginRequest.ts';
import type { BeginReply, BeginReply__Output } from '../proto/generated/bnpl/paymentstate/v1/BeginReply.ts';

const PKG = 'bnpl.paymentstate.v1';
const def = paymentStateDefinition();
const beginMethod = (def[`${PKG}.PaymentState`] as Record<string, MethodDefinition<BeginRequest, BeginReply, BeginRequest__Output, BeginReply__Output>>).Begin;
/** Over the wire and back, as the gateway's client and payment-state's server do it. */
const wireRequest = (r: BeginRequest): BeginRequest__Output => beginMethod.requestDeserialize(beginMethod.requestSerialize(r));
const wireReply = (r: BeginReply): BeginReply__Output => beginMethod.responseDeserialize(beginMethod.responseSerialize(r));

type Field = { name: string; type: string; typeName: string; label: string; oneofIndex: number };
type Descriptor = { name: string; field: Field[]; oneofDecl: { name: string }[]; nestedType: Descriptor[]; options: { mapEntry?: boolean } | null };
const descriptorOf = (name: string): Descriptor => {
  const d = def[name.includes('.') ? name : `${PKG}.${name}`] as MessageTypeDefinition<object, object> | undefined;
  if (!d) throw new Error(`no message ${name}`);
  return d.type as unknown as Descriptor;
};
/** A field's message: a map's entry is nested in the message that holds it. */
const typeOfField = (parent: Descriptor, f: Field): Descriptor => parent.nestedType.find((n) => n.name === f.typeName) ?? descriptorOf(f.typeName);

const ACTIONS = Object.fromEntries(Object.keys(PARAMS_SCHEMAS).map((field) => [field.toUpperCase(), field])) as Record<Action & string, ParamsField>;
const ROOTS: [string, z.ZodType][] = [
  ['UpdateParams', PARAMS_SCHEMAS.update],
  ['ConfirmParams', PARAMS_SCHEMAS.confirm],
  ['CaptureParams', PARAMS_SCHEMAS.capture],
  ['CancelParams', PARAMS_SCHEMAS.cancel],
  ['IncrementalAuthorizationParams', PARAMS_SCHEMAS.incremental_authorization],
  ['ReviewDecisionParams', PARAMS_SCHEMAS.approve],
  ['AuthenticateParams', PARAMS_SCHEMAS.authenticate],
  ['RefundParams', PARAMS_SCHEMAS.refund],
  ['UpdateRefundParams', PARAMS_SCHEMAS.update_refund],
  ['MandateResource', MandateResource],
  ['CustomerPaymentMethod', CustomerPaymentMethod],
  ['ProviderOrder', JOB_SCHEMAS.order],
  ['CaptureDetails', JOB_SCHEMAS.capture_details],
  ['JobMandate', JOB_SCHEMAS.mandate],
];

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  values?: unknown[];
  entries?: Record<string, string>;
};
const defOf = (t: z.ZodType) => (t as unknown as { def: Def }).def;
const isInt = (t: z.ZodType) => !!(t as unknown as { isInt?: boolean }).isInt;

/** The proto scalar type that carries a zod scalar. */
function scalarType(t: z.ZodType): string {
  const d = defOf(t);
  if (d.type === 'number') return isInt(t) ? 'TYPE_INT64' : 'TYPE_DOUBLE';
  if (d.type === 'boolean') return 'TYPE_BOOL';
  if (d.type === 'string' || d.type === 'enum' || (d.type === 'literal' && typeof d.values![0] === 'string')) return 'TYPE_STRING';
  return `no proto type for zod ${d.type}`;
}

/**
 * Every difference between a schema and the message that carries it, as "path: problem" lines (none: they agree).
 * The proto kinds follow the rules of payment_state.proto, as adapters/begin-params.ts wireKind reads the schema.
 */
function drift(t: z.ZodType, msg: Descriptor, path: string, seen = new Set<string>()): string[] {
  const s = bare(t);
  const kind = wireKind(s);
  const key = `${msg.name}:${kind}`;
  if (seen.has(key)) return [];
  seen.add(key);
  const fields = new Map(msg.field.map((f) => [f.name, f]));
  const out: string[] = [];
  const check = (ft: z.ZodType, f: Field | undefined, at: string, parent: Descriptor) => {
    if (!f) return out.push(`${at}: no proto field`);
    const inner = bare(ft);
    if (wireKind(inner) === 'scalar') {
      if (f.type !== scalarType(inner)) out.push(`${at}: ${f.type}, the schema needs ${scalarType(inner)}`);
      if (f.label === 'LABEL_REPEATED') out.push(`${at}: repeated, the schema has one value`);
    } else if (f.type !== 'TYPE_MESSAGE') out.push(`${at}: ${f.type}, the schema needs a message (${wireKind(inner)})`);
    else if (f.label === 'LABEL_REPEATED') out.push(`${at}: repeated, a list is held in a message's items`);
    else out.push(...drift(inner, typeOfField(parent, f), at, seen));
  };
  switch (kind) {
    case 'object': {
      const shape = defOf(s).shape!;
      const names = [...fields.keys()].filter((n) => n !== 'null_fields');
      for (const n of names) if (!(n in shape)) out.push(`${path}.${n}: not in the schema`);
      const nulls = fields.get('null_fields');
      if (nulls?.type !== 'TYPE_STRING' || nulls.label !== 'LABEL_REPEATED') out.push(`${path}: ${msg.name} has no repeated string null_fields`);
      for (const [k, ft] of Object.entries(shape)) {
        check(ft, fields.get(k), `${path}.${k}`, msg);
        // Scalars keep their presence (absent stays absent).
        if (fields.get(k) && wireKind(bare(ft)) === 'scalar' && !msg.oneofDecl.some((o) => o.name === `_${k}`)) out.push(`${path}.${k}: not optional`);
      }
      break;
    }
    case 'list':
    case 'map': {
      const items = fields.get('items');
      if (msg.field.length !== 1 || !items || items.label !== 'LABEL_REPEATED') {
        out.push(`${path}: ${msg.name} must hold the ${kind} in its one field, repeated items`);
        break;
      }
      const element = kind === 'list' ? defOf(s).element! : defOf(s).valueType!;
      if (kind === 'map') {
        const entry = typeOfField(msg, items);
        if (!entry.options?.mapEntry) out.push(`${path}: ${msg.name}.items is not a map`);
        else
          check(
            element,
            entry.field.find((f) => f.name === 'value'),
            `${path}[*]`,
            entry,
          );
      } else if (wireKind(bare(element)) === 'scalar') {
        if (items.type !== scalarType(bare(element))) out.push(`${path}[]: ${items.type}, the schema needs ${scalarType(bare(element))}`);
      } else out.push(...drift(element, typeOfField(msg, items), `${path}[]`, seen));
      break;
    }
    case 'struct':
    case 'value': {
      const want = kind === 'struct' ? 'Struct' : 'Value';
      if (msg.name !== want) out.push(`${path}: ${msg.name}, free-form JSON is a google.protobuf.${want}`);
      break;
    }
    case 'union':
    case 'tagged': {
      const options = defOf(s).options!;
      const members = kind === 'union' ? (UNION_MEMBERS.get(s) ?? []) : options.map((o) => String(defOf(defOf(o).shape![defOf(s).discriminator!]).values![0]));
      const oneof = msg.field.filter((f) => msg.oneofDecl[f.oneofIndex]?.name && !msg.oneofDecl[f.oneofIndex].name.startsWith('_'));
      if (oneof.length !== msg.field.length || oneof.map((f) => f.name).join() !== members.join())
        out.push(`${path}: ${msg.name} must be one oneof of ${members.join(', ')}`);
      for (const [i, o] of options.entries()) {
        const f = fields.get(members[i]);
        if (kind === 'union') {
          check(o, f, `${path}|${members[i]}`, msg);
          continue;
        }
        if (!f) {
          out.push(`${path}|${members[i]}: no proto field`);
          continue;
        }
        // The member holds the option's object without its tag.
        const { [defOf(s).discriminator!]: _tag, ...rest } = defOf(o).shape!;
        const member = typeOfField(msg, f);
        const names = member.field.map((x) => x.name).filter((n) => n !== 'null_fields');
        if (names.join() !== Object.keys(rest).join()) out.push(`${path}|${members[i]}: fields ${names.join()}, the schema has ${Object.keys(rest).join()}`);
        for (const [k, ft] of Object.entries(rest))
          check(
            ft,
            member.field.find((x) => x.name === k),
            `${path}|${members[i]}.${k}`,
            member,
          );
      }
      break;
    }
    default:
      out.push(`${path}: ${kind} is not a message`);
  }
  return out;
}

// ----- Values generated from the schemas: every field, nested to the bottom.

/** Free-form JSON as a merchant sends it: every JSON type, nesting, an empty object and list, a __proto__ key. */
const FREE = JSON.parse(
  '{"s":"x","n":1.5,"i":-7,"big":9007199254740991,"b":false,"z":null,"l":[1,"a",null,{"d":true},[]],"o":{"deep":{"deeper":[]}},"e":{},"__proto__":"kept"}',
);

type Mode = { variant: number; nulls: boolean; depth: number };
/** A value of `t`: every key given (the nullable ones null below the top when `nulls`), union option `variant`. */
function sampleOf(t: z.ZodType, mode: Mode): unknown {
  const s = bare(t);
  const d = defOf(s);
  const deeper = { ...mode, depth: mode.depth + 1 };
  switch (wireKind(s)) {
    case 'scalar':
      if (d.type === 'number') return isInt(s) ? 9_007_199_254_740_991 : 19.25;
      if (d.type === 'boolean') return mode.variant % 2 === 0;
      if (d.type === 'enum') return Object.values(d.entries!)[mode.variant % Object.values(d.entries!).length];
      if (d.type === 'literal') return d.values![0];
      return `text ${mode.variant}`;
    case 'object':
      return Object.fromEntries(
        Object.entries(d.shape!).map(([k, ft]) => [k, mode.nulls && mode.depth > 0 && ft.safeParse(null).success ? null : sampleOf(ft, deeper)]),
      );
    case 'list':
      return [sampleOf(d.element!, deeper), sampleOf(d.element!, { ...deeper, variant: mode.variant + 1 })];
    case 'map':
      return { first: sampleOf(d.valueType!, deeper), second: sampleOf(d.valueType!, { ...deeper, variant: mode.variant + 1 }) };
    case 'struct':
      return FREE;
    case 'value':
      return FREE.l;
    case 'union':
    case 'tagged':
      return sampleOf(d.options![mode.variant % d.options!.length], deeper);
  }
}

const roundTrip = (action: Action, body: object) => paramsOfBegin(wireRequest({ merchant_id: 'm', payment_id: 'p', action, ...beginParams(action, body) }));

const ADDRESS = { address: { city: 'Berlin', country: 'DE', line1: 'Str. 1', line2: null }, phone: { number: '123' }, email: 'a@b.de' };
const ORDER = [{ product_name: 'Shoe', quantity: 2, amount: 500, tax_percentage: 19.5, requires_shipping: null }];

/** Realistic bodies, as the gateway's validation leaves them: absent fields stay absent, some given as null. */
const SAMPLES: Partial<Record<Action & string, object[]>> = {
  UPDATE: [
    {},
    { amount: 1000, currency: 'EUR', description: null, metadata: { a: '1', nested: { b: [1, 2] } }, billing: ADDRESS, shipping: null, order_details: ORDER },
    { customer: { id: 'cus_1', email: 'x@y.de', name: null }, customer_id: 'cus_1', off_session: false, session_expiry: 0, connector: ['payla'] },
    {
      order_details: [],
      metadata: {},
      connector: null,
      allowed_payment_method_types: [],
      payment_link_config: { allowed_domains: ['https://shop.example'], theme: '#fff' },
    },
  ],
  CONFIRM: [
    {},
    { payment_method: 'pay_later' },
    // A create's confirm=true: connector left undefined when the create named none.
    { connector: undefined },
    {
      amount: 2000,
      currency: 'EUR',
      capture_method: 'manual',
      confirm: true,
      client_secret: 'pay_x_secret_y',
      return_url: 'https://shop.example/r',
      routing: { type: 'priority', data: ['payla', { connector: 'ratepay', merchant_connector_id: null }, { connector: 'unzer' }] },
      browser_info: { color_depth: 24, java_enabled: false, device_fingerprint: { payla: 'fp' } },
      customer_acceptance: { acceptance_type: 'online' },
      amount_to_capture: null,
      payment_method_data: { pay_later: { invoice: {} }, billing: ADDRESS },
      allowed_payment_method_types: ['invoice'],
      request_incremental_authorization: true,
      order_tax_amount: 0,
      mandate_data: {
        customer_acceptance: { acceptance_type: 'online', accepted_at: '2026-01-01T00:00:00Z', online: { ip_address: '127.0.0.1', user_agent: null } },
        mandate_type: { single_use: { amount: 2000, currency: 'EUR', metadata: { plan: 'gold' } } },
      },
      surcharge_details: { surcharge_amount: 10, tax_amount: null },
    },
    { routing: { type: 'single', data: 'payla' } },
    {
      routing: {
        type: 'volume_split',
        data: [
          { connector: 'payla', split: 60 },
          { connector: { connector: 'ratepay', merchant_connector_id: 'mca_1' }, split: 40 },
        ],
      },
    },
  ],
  CAPTURE: [
    {},
    {
      amount_to_capture: 700,
      capture_id: 'cap_0123456789012345678901234',
      capture_metadata: { invoice_data: { due_date: '2026-01-01', merchant_invoice_ref: null } },
      refund_uncaptured_amount: false,
    },
    { amount_to_capture: -1, order_details: null, metadata: {}, capture_metadata: {} },
  ],
  CANCEL: [{}, { cancellation_reason: 'requested_by_customer', amount_to_cancel: 300, order_details: ORDER, merchant_connector_details: null }],
  INCREMENTAL_AUTHORIZATION: [{ amount: 5000 }, { amount: 0, reason: null }, { amount: Number.MAX_SAFE_INTEGER, reason: 'more shoes' }],
  APPROVE: [{}],
  REJECT: [{}],
  AUTHENTICATE: [
    { device_channel: 'BRW', threeds_method_comp_ind: 'Y' },
    { device_channel: 'BRW', threeds_method_comp_ind: 'N', browser_info: { language: 'de', screen_height: 800 }, sdk_information: null },
    {
      device_channel: 'APP',
      threeds_method_comp_ind: 'U',
      sdk_information: {
        sdk_app_id: 'app',
        sdk_enc_data: 'enc',
        sdk_ephem_pub_key: { kty: 'EC', crv: 'P-256' },
        sdk_trans_id: 't',
        sdk_reference_number: 'r',
        sdk_max_timeout: 5,
      },
    },
  ],
  REFUND: [
    { payment_id: 'pay_1', refund_id: 'ref_1' },
    {
      payment_id: 'pay_1',
      refund_id: 'ref_2',
      amount: 100,
      reason: null,
      metadata: { k: 'v' },
      split_refunds: { stripe: { revert_platform_fee: true, revert_transfer: null }, other: {} },
      order_details: ORDER,
      refund_type: 'instant',
    },
  ],
  UPDATE_REFUND: [{ refund_id: 'ref_1' }, { refund_id: 'ref_1', reason: 'late', metadata: null }],
};

describe('the proto and the zod schemas agree', () => {
  it.each(ROOTS)('%s carries its schema, every nested message included', (message, schema) => {
    expect(drift(schema, descriptorOf(message), message)).toEqual([]);
  });

  it('the check sees a drift: a key the message lacks, a kind it cannot carry, a field that is not optional', () => {
    const extended = PARAMS_SCHEMAS.capture.safeExtend({ surprise: PARAMS_SCHEMAS.capture.shape.capture_type });
    expect(drift(extended, descriptorOf('CaptureParams'), 'CaptureParams')).toEqual(['CaptureParams.surprise: no proto field']);
    const retyped = z.strictObject({ ...PARAMS_SCHEMAS.cancel.shape, cancellation_reason: PARAMS_SCHEMAS.cancel.shape.amount_to_cancel });
    expect(drift(retyped, descriptorOf('CancelParams'), 'CancelParams')).toEqual([
      'CancelParams.cancellation_reason: TYPE_STRING, the schema needs TYPE_INT64',
    ]);
    const nested = z.strictObject({ ...PARAMS_SCHEMAS.capture.shape, order_details: PARAMS_SCHEMAS.capture.shape.metadata });
    expect(drift(nested, descriptorOf('CaptureParams'), 'CaptureParams')).toEqual([
      'CaptureParams.order_details: OrderLines, free-form JSON is a google.protobuf.Struct',
    ]);
    expect(drift(PARAMS_SCHEMAS.confirm, descriptorOf('CaptureParams'), 'CaptureParams').length).toBeGreaterThan(10);
  });
});

describe('Begin params over protobuf', () => {
  for (const [action, field] of Object.entries(ACTIONS) as [Action & string, ParamsField][]) {
    const schema = PARAMS_SCHEMAS[field];
    const keys = Object.keys(defOf(bare(schema)).shape!);

    it(`${action}: every field, nested to the bottom, comes back as it was (each union option in turn)`, () => {
      for (const variant of [0, 1, 2]) {
        const all = sampleOf(schema, { variant, nulls: false, depth: 0 }) as object;
        expect(roundTrip(action, all)).toStrictEqual(all);
        const nestedNulls = sampleOf(schema, { variant, nulls: true, depth: 0 }) as object;
        expect(roundTrip(action, nestedNulls)).toStrictEqual(nestedNulls);
      }
    });

    it(`${action}: each field alone, given, null or absent, comes back as it was`, () => {
      for (const key of keys) {
        const given = { [key]: (sampleOf(schema, { variant: 0, nulls: false, depth: 0 }) as Record<string, unknown>)[key] };
        expect(roundTrip(action, given), key).toStrictEqual(given);
        expect(roundTrip(action, { [key]: null }), key).toStrictEqual({ [key]: null });
      }
      expect(roundTrip(action, {})).toStrictEqual({});
      const nulls = Object.fromEntries(keys.map((key) => [key, null]));
      expect(roundTrip(action, nulls)).toStrictEqual(nulls);
    });

    it(`${action}: realistic bodies come back equal, and the schema reads them as it reads the body`, () => {
      for (const body of SAMPLES[action] ?? []) {
        const plain = JSON.parse(JSON.stringify(body)) as object;
        const back = roundTrip(action, body);
        expect(back).toStrictEqual(plain);
        expect(schema.safeParse(back)).toStrictEqual(schema.safeParse(plain));
      }
    });
  }

  it('numbers come back as numbers (not Long), and a free-form __proto__ key as an own key', () => {
    const back = roundTrip('CONFIRM', { amount: Number.MAX_SAFE_INTEGER, metadata: FREE }) as { amount: unknown; metadata: Record<string, unknown> };
    expect(typeof back.amount).toBe('number');
    expect(Object.hasOwn(back.metadata, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(back.metadata)).toBe(Object.prototype);
  });

  it('no params: an empty body', () => {
    expect(paramsOfBegin(wireRequest({ merchant_id: 'm', payment_id: 'p', action: 'APPROVE' }))).toStrictEqual({});
    expect(paramsOfBegin(wireRequest({ merchant_id: 'm', payment_id: 'p', action: 'CONFIRM', confirm: {} }))).toStrictEqual({});
  });

  it("another action's params are refused", () => {
    const req = wireRequest({ merchant_id: 'm', payment_id: 'p', action: 'CAPTURE', ...beginParams('CONFIRM', { amount: 1 }) });
    expect(() => paramsOfBegin(req)).toThrow(/do not match/);
  });

  it('a key the strict schema does not declare is refused, not dropped', () => {
    expect(() => beginParams('CONFIRM', { amount: 1, surprise: 1 })).toThrow(/surprise is not a field/);
    expect(() => beginParams('CONFIRM', { billing: { address: { planet: 'Mars' } } })).toThrow(/planet is not a field/);
  });

  it('a params message converts without the wire too', () => {
    const body = { amount: 1, billing: ADDRESS, description: null };
    expect(fromParamsMessage(PARAMS_SCHEMAS.update, toParamsMessage(PARAMS_SCHEMAS.update, body))).toStrictEqual(body);
  });
});

describe('the mandate and saved payment method over protobuf', () => {
  const mandate = {
    mandate_id: 'man_1',
    merchant_id: 'mer_1',
    customer_id: 'cus_1',
    status: 'active',
    payment_method: 'pay_later',
    payment_method_type: null,
    payment_token: 'token_1',
    connector: 'payla',
    merchant_connector_id: null,
    connector_mandate_id: 'cm_1',
    customer_acceptance: { acceptance_type: 'offline', accepted_at: null },
    mandate_type: { single_use: { amount: 100, currency: 'EUR', metadata: FREE } },
    original_payment_id: 'pay_1',
    created_at: '2026-01-01T00:00:00.000Z',
    revoked_at: null,
  };
  const paymentMethod = {
    payment_token: 'token_1',
    customer_id: 'cus_1',
    payment_method: 'pay_later',
    payment_method_type: 'invoice',
    setup_future_usage: 'off_session',
    connector: 'payla',
    merchant_connector_id: 'mca_1',
    mandate_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
    last_used_at: null,
  };
  const wire = (held: Parameters<typeof beginMandate>[0]) =>
    mandateOfBegin(wireRequest({ merchant_id: 'm', payment_id: 'p', action: 'CONFIRM', ...beginMandate(held) }));

  it('both come back as they were, and parse as they did', () => {
    // As the gateway holds them: parsed (zod's record leaves a "__proto__" key out).
    const held = { mandate: MandateResource.parse(mandate), paymentMethod: CustomerPaymentMethod.parse(paymentMethod) };
    const back = wire(held);
    expect(back).toStrictEqual(held);
    expect(MandateResource.parse(back.mandate)).toStrictEqual(MandateResource.parse(mandate));
  });

  it('none: null, and a key the schema strips (the document store merchant_id) is left out', () => {
    expect(wire({ mandate: null, paymentMethod: null })).toStrictEqual({ mandate: null, paymentMethod: null });
    const stored = { ...CustomerPaymentMethod.parse(paymentMethod), merchant_id: 'mer_1' };
    expect(wire({ mandate: null, paymentMethod: stored }).paymentMethod).toStrictEqual(paymentMethod);
  });
});

describe('ConnectorJob over protobuf', () => {
  const base: ConnectorJob = {
    merchant_id: 'mer_1',
    payment_id: 'pay_1',
    operation_id: 'op_1',
    kind: 'authorize',
    connector: 'payla',
    merchant_connector_id: null,
    amount: 1234,
    currency: 'EUR',
    capture_method: 'automatic',
    connector_transaction_id: null,
    customer_email: null,
    return_url: null,
    merchant_order_reference_id: null,
    mode: 'execute',
    sync_round: 0,
  };
  const jobs: ConnectorJob[] = [
    base,
    {
      ...base,
      kind: 'capture',
      merchant_connector_id: 'mca_1',
      connector_transaction_id: 'tx_1',
      customer_email: 'a@b.de',
      return_url: 'https://r.example',
      merchant_order_reference_id: 'ord_1',
      mode: 'sync',
      sync_round: 3,
      once: true,
      amount: Number.MAX_SAFE_INTEGER,
    },
    {
      ...base,
      kind: 'authenticate',
      authentication: {
        authentication_id: 'auth_1',
        device_channel: 'BRW',
        threeds_method_comp_ind: 'Y',
        browser_info: null,
      },
    },
    {
      ...base,
      kind: 'authenticate',
      connector_transaction_id: '3ds_tx',
      authentication: {
        authentication_id: 'auth_2',
        device_channel: 'APP',
        threeds_method_comp_ind: 'U',
        browser_info: { language: 'de', java_enabled: false },
        sdk_information: {
          sdk_app_id: 'a',
          sdk_enc_data: 'e',
          sdk_ephem_pub_key: { kty: 'EC' },
          sdk_trans_id: 't',
          sdk_reference_number: 'r',
          sdk_max_timeout: 10,
        },
      },
    },
    {
      ...base,
      order: {
        customer: { id: 'cus_1', name: 'Erika', email: null, phone: '123', phone_country_code: null },
        billing: { address: { city: 'Berlin', line2: null }, email: 'a@b.de' },
        shipping: null,
        order_details: [{ product_name: 'Shoe', quantity: 1, amount: 1234, tax_percentage: 19.5, brand: null }],
        order_tax_amount: 0,
        metadata: FREE,
        browser_info: { language: 'de', color_depth: 24, java_enabled: false },
        description: null,
        payment_method_type: 'invoice',
        birth_date: '1980-01-01',
        gender: null,
        locale: 'de-DE',
      },
      mandate: { kind: 'recurring', mandate_id: 'man_1', connector_mandate_id: null },
    },
    {
      ...base,
      kind: 'capture',
      order: {
        customer: null,
        billing: {},
        shipping: null,
        order_details: [],
        order_tax_amount: null,
        metadata: null,
        browser_info: null,
        description: 'd',
        payment_method_type: null,
        birth_date: null,
        gender: null,
        locale: null,
      },
      capture_details: {
        capture_metadata: { invoice_data: { merchant_invoice_ref: 'INV-1', due_date: null } },
        metadata: {},
        order_details: [{ product_name: 'Shoe', quantity: 1, amount: 1234 }, null, 'x'],
        statement_descriptor: { name: 'SHOP', suffix: null, prefix: null },
      },
    },
    { ...base, kind: 'capture', capture_details: { capture_metadata: null, metadata: null, order_details: null } },
  ];

  it.each(jobs.map((j) => [j.kind, j] as const))('%s: the job comes back as it was', (_kind, job) => {
    const reply = wireReply({ operation_id: job.operation_id, needs_connector: true, job: toJobMessage(job), replayed: false, status: 'processing' });
    expect(fromJobMessage(reply.job!)).toStrictEqual(job);
  });

  it('no job: null', () => {
    expect(wireReply({ operation_id: '', needs_connector: false, job: null, replayed: false, status: 'cancelled' }).job).toBeNull();
  });
});
