// The typed Begin params and ConnectorJob go through protobuf and come back as the same plain objects: every field
// of every action's request schema has its field in proto/payment_state.proto, null stays null, absent stays absent.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { MessageTypeDefinition, MethodDefinition } from '@grpc/proto-loader';
import { beginParams, fromJobMessage, fromParamsMessage, paramsOfBegin, toJobMessage, toParamsMessage } from './begin-params.ts';
import { paymentStateDefinition } from '../lib/grpc.ts';
import {
  CancelPaymentRequest,
  CapturePaymentRequest,
  ConfirmPaymentRequest,
  IncrementalAuthorizationRequest,
  ReviewDecisionRequest,
  ThreeDsAuthenticationRequest,
  UpdatePaymentRequest,
} from '../lib/schemas/payment.ts';
import type { ConnectorJob } from '../domain/job.ts';
import type { BeginRequest, BeginRequest__Output } from '../proto/generated/bnpl/paymentstate/v1/BeginRequest.ts';
import type { BeginReply, BeginReply__Output } from '../proto/generated/bnpl/paymentstate/v1/BeginReply.ts';

const PKG = 'bnpl.paymentstate.v1';
const def = paymentStateDefinition();
const beginMethod = (def[`${PKG}.PaymentState`] as Record<string, MethodDefinition<BeginRequest, BeginReply, BeginRequest__Output, BeginReply__Output>>).Begin;
/** Over the wire and back, as the gateway's client and payment-state's server do it. */
const wireRequest = (r: BeginRequest): BeginRequest__Output => beginMethod.requestDeserialize(beginMethod.requestSerialize(r));
const wireReply = (r: BeginReply): BeginReply__Output => beginMethod.responseDeserialize(beginMethod.responseSerialize(r));

type Field = { name: string; type: string; label: string };
const fieldsOf = (message: string): Field[] =>
  ((def[`${PKG}.${message}`] as MessageTypeDefinition<object, object>).type as unknown as { field: Field[] }).field;

const ACTIONS = {
  UPDATE: { message: 'UpdateParams', schema: UpdatePaymentRequest },
  CONFIRM: { message: 'ConfirmParams', schema: ConfirmPaymentRequest },
  CAPTURE: { message: 'CaptureParams', schema: CapturePaymentRequest },
  CANCEL: { message: 'CancelParams', schema: CancelPaymentRequest },
  INCREMENTAL_AUTHORIZATION: { message: 'IncrementalAuthorizationParams', schema: IncrementalAuthorizationRequest },
  APPROVE: { message: 'ReviewDecisionParams', schema: ReviewDecisionRequest },
  REJECT: { message: 'ReviewDecisionParams', schema: ReviewDecisionRequest },
  AUTHENTICATE: { message: 'AuthenticateParams', schema: ThreeDsAuthenticationRequest },
} as const;
type ActionName = keyof typeof ACTIONS;

const roundTrip = (action: ActionName, body: object) => paramsOfBegin(wireRequest({ merchant_id: 'm', payment_id: 'p', action, ...beginParams(action, body) }));

const ADDRESS = { address: { city: 'Berlin', country: 'DE', line1: 'Str. 1', line2: null }, phone: { number: '123' }, email: 'a@b.de' };
const ORDER = [{ product_name: 'Shoe', quantity: 2, amount: 500, tax_percentage: 19.5, requires_shipping: null }];

/** Realistic bodies, as the gateway's validation leaves them: absent fields stay absent, some given as null. */
const SAMPLES: Record<ActionName, object[]> = {
  UPDATE: [
    {},
    { amount: 1000, currency: 'EUR', description: null, metadata: { a: '1', nested: { b: [1, 2] } }, billing: ADDRESS, shipping: null, order_details: ORDER },
    { customer: { id: 'cus_1', email: 'x@y.de', name: null }, customer_id: 'cus_1', off_session: false, session_expiry: 0, connector: ['payla'] },
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
      routing: { type: 'priority', data: ['payla', { connector: 'ratepay', merchant_connector_id: null }] },
      browser_info: { color_depth: 24, java_enabled: false },
      customer_acceptance: { acceptance_type: 'online' },
      amount_to_capture: null,
      payment_method_data: { pay_later: { klarna: {} }, billing: ADDRESS },
      allowed_payment_method_types: ['klarna'],
      request_incremental_authorization: true,
      order_tax_amount: 0,
    },
  ],
  CAPTURE: [
    {},
    {
      amount_to_capture: 700,
      capture_id: 'cap_0123456789012345678901234',
      capture_metadata: { invoice_data: { due_date: '2026-01-01' } },
      refund_uncaptured_amount: false,
    },
    { amount_to_capture: -1, order_details: null, metadata: {} },
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
        sdk_ephem_pub_key: { kty: 'EC' },
        sdk_trans_id: 't',
        sdk_reference_number: 'r',
        sdk_max_timeout: 5,
      },
    },
  ],
};

/** The proto type a schema field needs: a scalar its own type, anything else its JSON text. */
function protoTypeOf(t: z.ZodType): string {
  let inner = t as z.ZodType & { def: { type: string; innerType?: z.ZodType }; isInt?: boolean };
  while (inner.def.type === 'optional' || inner.def.type === 'nullable') inner = inner.def.innerType as typeof inner;
  switch (inner.def.type) {
    case 'number':
      return inner.isInt ? 'TYPE_INT64' : 'TYPE_DOUBLE';
    case 'boolean':
      return 'TYPE_BOOL';
    case 'string':
    case 'enum':
      return 'TYPE_STRING';
    default:
      return 'json';
  }
}

/** A value of the field's proto type (an object for a `_json` field). */
function sampleFor(f: Field): unknown {
  if (f.name.endsWith('_json')) return { any: ['thing', 1, null, { deep: true }] };
  switch (f.type) {
    case 'TYPE_INT64':
      return 9_007_199_254_740_991;
    case 'TYPE_BOOL':
      return true;
    case 'TYPE_STRING':
      return 'text';
    default:
      throw new Error(`${f.name}: no sample for ${f.type}`);
  }
}

describe('Begin params over protobuf', () => {
  for (const [action, { message, schema }] of Object.entries(ACTIONS) as [ActionName, (typeof ACTIONS)[ActionName]][]) {
    const fields = fieldsOf(message);
    const byKey = new Map(fields.filter((f) => f.name !== 'null_fields').map((f) => [f.name.replace(/_json$/, ''), f]));

    it(`${action}: ${message} has one field per field of the request schema, and no other`, () => {
      expect([...byKey.keys()].sort()).toEqual(Object.keys(schema.shape).sort());
    });

    it(`${action}: each field's proto type is the schema's: integer int64, boolean bool, string or enum string, else _json`, () => {
      for (const [key, t] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
        expect(`${key}: ${protoTypeOf(t)}`).toBe(`${key}: ${byKey.get(key)?.name.endsWith('_json') ? 'json' : byKey.get(key)?.type}`);
      }
    });

    it(`${action}: each field alone, given, null or absent, comes back as it was`, () => {
      for (const [key, field] of byKey) {
        const given = { [key]: sampleFor(field) };
        expect(roundTrip(action, given), key).toStrictEqual(given);
        expect(roundTrip(action, { [key]: null }), key).toStrictEqual({ [key]: null });
      }
      expect(roundTrip(action, {})).toStrictEqual({});
    });

    it(`${action}: every field at once comes back as it was`, () => {
      const all = Object.fromEntries([...byKey].map(([key, field]) => [key, sampleFor(field)]));
      expect(roundTrip(action, all)).toStrictEqual(all);
      const nulls = Object.fromEntries([...byKey.keys()].map((key) => [key, null]));
      expect(roundTrip(action, nulls)).toStrictEqual(nulls);
    });

    it(`${action}: realistic bodies come back equal, and the schema reads them as before`, () => {
      for (const body of SAMPLES[action]) {
        const plain = JSON.parse(JSON.stringify(body)) as object; // what params_json carried
        const back = roundTrip(action, body);
        expect(back).toStrictEqual(plain);
        expect(schema.safeParse(back)).toStrictEqual(schema.safeParse(plain));
      }
    });
  }

  it('no params: an empty body (as an empty params_json was)', () => {
    expect(paramsOfBegin(wireRequest({ merchant_id: 'm', payment_id: 'p', action: 'APPROVE' }))).toStrictEqual({});
    expect(paramsOfBegin(wireRequest({ merchant_id: 'm', payment_id: 'p', action: 'CONFIRM', confirm: {} }))).toStrictEqual({});
  });

  it("another action's params are refused", () => {
    const req = wireRequest({ merchant_id: 'm', payment_id: 'p', action: 'CAPTURE', ...beginParams('CONFIRM', { amount: 1 }) });
    expect(() => paramsOfBegin(req)).toThrow(/do not match/);
  });

  it('a params message converts without the wire too', () => {
    const body = { amount: 1, billing: ADDRESS, description: null };
    expect(fromParamsMessage(toParamsMessage(body))).toStrictEqual(body);
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
  ];

  it.each(jobs.map((j) => [j.kind, j] as const))('%s: the job comes back as it was', (_kind, job) => {
    const reply = wireReply({ operation_id: job.operation_id, needs_connector: true, job: toJobMessage(job), replayed: false, status: 'processing' });
    expect(fromJobMessage(reply.job!)).toStrictEqual(job);
  });

  it('no job: null', () => {
    expect(wireReply({ operation_id: '', needs_connector: false, job: null, replayed: false, status: 'cancelled' }).job).toBeNull();
  });
});
