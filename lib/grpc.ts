// gRPC plumbing for the payment-state contract: loading proto/, a client whose calls carry the trace context and
// a deadline, and a server-side wrapper that continues the caller's trace and maps errors to status codes.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fileURLToPath } from 'node:url';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { context } from '@opentelemetry/api';
import type { ProtoGrpcType } from '../proto/generated/payment_state.ts';
import type { PaymentStateClient } from '../proto/generated/bnpl/paymentstate/v1/PaymentState.ts';
import { extractContext, injectContext, withSpan, SpanKind } from './telemetry.ts';
import { log } from './log.ts';
import { record, secondsSince } from './metrics.ts';

const PROTO = fileURLToPath(new URL('../proto/payment_state.proto', import.meta.url));

/** proto/payment_state.proto as proto-loader reads it (its messages' descriptors, the methods' (de)serializers). */
export const paymentStateDefinition = (): protoLoader.PackageDefinition =>
  protoLoader.loadSync(PROTO, { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true });

export function loadPaymentStateProto(): ProtoGrpcType {
  return grpc.loadPackageDefinition(paymentStateDefinition()) as unknown as ProtoGrpcType;
}

/** A failure that carries one of our API error codes across gRPC (trailing metadata "error-code"). */
export class RpcError extends Error {
  readonly grpcCode: grpc.status;
  readonly errorCode?: string;
  readonly param?: string;
  constructor(grpcCode: grpc.status, message: string, errorCode?: string, param?: string) {
    super(message);
    this.grpcCode = grpcCode;
    this.errorCode = errorCode;
    this.param = param;
  }
}

export function paymentStateClient(addr: string): PaymentStateClient {
  const proto = loadPaymentStateProto();
  const tracing: grpc.Interceptor = (options, next) =>
    new grpc.InterceptingCall(next(options), {
      start(metadata, listener, nextStart) {
        for (const [k, v] of Object.entries(injectContext())) metadata.set(k, v);
        nextStart(metadata, listener);
      },
    });
  return new proto.bnpl.paymentstate.v1.PaymentState(addr, grpc.credentials.createInsecure(), {
    interceptors: [tracing],
    // Channelz (grpc-js's call tracking for a channelz service, which no process serves) off: its per-call work for nothing.
    'grpc.enable_channelz': 0,
    'grpc.keepalive_time_ms': 30_000,
    // A restarted payment-state is reached again within a second, not after grpc-js's default backoff (up to 2 min).
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 2_000,
  });
}

type Unary<Req, Res> = (req: Req, opts: { deadline: number; waitForReady?: boolean }, cb: (err: grpc.ServiceError | null, res?: Res) => void) => unknown;

/**
 * Calls a unary RPC with a deadline, inside a client span; rejects with the ServiceError. `waitForReady`: while the
 * server is unreachable, wait for it (until the deadline) instead of failing at once.
 */
export function call<Req, Res>(client: grpc.Client, method: string, req: Req, timeoutMs: number, opts: { waitForReady?: boolean } = {}): Promise<Res> {
  const fn = (client as unknown as Record<string, Unary<Req, Res>>)[method].bind(client);
  return withSpan(
    `grpc PaymentState/${method}`,
    { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } },
    () =>
      new Promise<Res>((resolve, reject) => {
        fn(req, { deadline: Date.now() + timeoutMs, ...opts }, (err, res) => (err ? reject(err) : resolve(res as Res)));
      }),
  );
}

/**
 * Whether a failed call may still have done its work: the server did not answer (down, restarting, too slow) or
 * failed inside. The other codes are answers that come before anything is written.
 */
export function outcomeUnknown(err: unknown): boolean {
  const code = (err as grpc.ServiceError).code;
  return ![
    grpc.status.FAILED_PRECONDITION,
    grpc.status.INVALID_ARGUMENT,
    grpc.status.NOT_FOUND,
    grpc.status.UNIMPLEMENTED,
    grpc.status.ALREADY_EXISTS,
    grpc.status.ABORTED,
    grpc.status.PERMISSION_DENIED,
    grpc.status.UNAUTHENTICATED,
  ].includes(code);
}

export function errorCodeOf(err: grpc.ServiceError): { code?: string; param?: string } {
  const code = err.metadata?.get('error-code')[0];
  const param = err.metadata?.get('error-param')[0];
  return { code: code?.toString(), param: param?.toString() || undefined };
}

/**
 * Wraps a unary handler: continues the caller's trace, maps RpcError (and anything else) to a gRPC status. The
 * handler gets the call's deadline in this server's clock (epoch ms; Infinity when the caller set none).
 */
export function unary<Req, Res>(method: string, handler: (req: Req, deadline: number) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (callObj, callback) => {
    const start = process.hrtime.bigint();
    const timed = (code: grpc.status) =>
      record(
        'rpcServerDuration',
        { 'rpc.system': 'grpc', 'rpc.service': 'bnpl.paymentstate.v1.PaymentState', 'rpc.method': method, 'rpc.grpc.status_code': code },
        secondsSince(start),
      );
    const parent = extractContext(callObj.metadata.getMap());
    const d = callObj.getDeadline();
    const deadline = d instanceof Date ? d.getTime() : d;
    context
      .with(parent, () =>
        withSpan(`grpc PaymentState/${method}`, { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } }, () =>
          handler(callObj.request, deadline),
        ),
      )
      .then(
        (res) => {
          timed(grpc.status.OK);
          callback(null, res);
        },
        (err: unknown) => {
          const md = new grpc.Metadata();
          timed(err instanceof RpcError ? err.grpcCode : grpc.status.INTERNAL);
          if (err instanceof RpcError) {
            if (err.errorCode) md.set('error-code', err.errorCode);
            if (err.param) md.set('error-param', err.param);
            callback({ code: err.grpcCode, details: err.message, metadata: md });
          } else {
            // The error's own text (a database error quotes the values it refused) stays in this process's log.
            log.error('rpc handler failed', { method, err });
            callback({ code: grpc.status.INTERNAL, details: 'internal error', metadata: md });
          }
        },
      );
  };
}

export { grpc };

/** The grpc.health.v1 service name under which a process of an `npm start` run (INSTANCE_ID) answers SERVING: a
 * server of another run does not know it (NOT_FOUND), so a check of it tells our own process from another's. */
export const instanceHealthService = (instanceId: string) => `bnpl.instance/${instanceId}`;

/** grpc.health.v1 Check against a server: true when it answers SERVING within the deadline (for `service`: '' the server). */
export function healthChecker(addr: string): { check: (timeoutMs?: number, service?: string) => Promise<boolean>; close: () => void } {
  const def = protoLoader.loadSync(healthProtoPath, { keepCase: true, longs: Number, enums: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  const client = new pkg.grpc.health.v1.Health(addr, grpc.credentials.createInsecure());
  return {
    check: (timeoutMs = 1_000, service = '') =>
      new Promise((resolve) => {
        (client as unknown as Record<string, Unary<object, { status: string }>>).Check.call(
          client,
          { service },
          { deadline: Date.now() + timeoutMs },
          (err, res) => resolve(!err && res?.status === 'SERVING'),
        );
      }),
    close: () => client.close(),
  };
}
