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

const PROTO = fileURLToPath(new URL('../proto/payment_state.proto', import.meta.url));

export function loadPaymentStateProto(): ProtoGrpcType {
  const def = protoLoader.loadSync(PROTO, { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true });
  return grpc.loadPackageDefinition(def) as unknown as ProtoGrpcType;
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
    'grpc.keepalive_time_ms': 30_000,
  });
}

type Unary<Req, Res> = (req: Req, opts: { deadline: number }, cb: (err: grpc.ServiceError | null, res?: Res) => void) => unknown;

/** Calls a unary RPC with a deadline, inside a client span; rejects with the ServiceError. */
export function call<Req, Res>(client: grpc.Client, method: string, req: Req, timeoutMs: number): Promise<Res> {
  const fn = (client as unknown as Record<string, Unary<Req, Res>>)[method].bind(client);
  return withSpan(`grpc PaymentState/${method}`, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } }, () =>
    new Promise<Res>((resolve, reject) => {
      fn(req, { deadline: Date.now() + timeoutMs }, (err, res) => (err ? reject(err) : resolve(res as Res)));
    }));
}

export function errorCodeOf(err: grpc.ServiceError): { code?: string; param?: string } {
  const code = err.metadata?.get('error-code')[0];
  const param = err.metadata?.get('error-param')[0];
  return { code: code?.toString(), param: param?.toString() || undefined };
}

/** Wraps a unary handler: continues the caller's trace, maps RpcError (and anything else) to a gRPC status. */
export function unary<Req, Res>(method: string, handler: (req: Req) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
  return (callObj, callback) => {
    const parent = extractContext(callObj.metadata.getMap());
    context.with(parent, () =>
      withSpan(`grpc PaymentState/${method}`, { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } }, () => handler(callObj.request)),
    ).then(
      (res) => callback(null, res),
      (err: unknown) => {
        const md = new grpc.Metadata();
        if (err instanceof RpcError) {
          if (err.errorCode) md.set('error-code', err.errorCode);
          if (err.param) md.set('error-param', err.param);
          callback({ code: err.grpcCode, details: err.message, metadata: md });
        } else {
          callback({ code: grpc.status.INTERNAL, details: (err as Error).message ?? 'internal error', metadata: md });
        }
      },
    );
  };
}

export { grpc };

/** grpc.health.v1 Check against a server: true when it answers SERVING within the deadline. */
export function healthChecker(addr: string): { check: (timeoutMs?: number) => Promise<boolean>; close: () => void } {
  const def = protoLoader.loadSync(healthProtoPath, { keepCase: true, longs: Number, enums: String, defaults: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } };
  const client = new pkg.grpc.health.v1.Health(addr, grpc.credentials.createInsecure());
  return {
    check: (timeoutMs = 1_000) => new Promise((resolve) => {
      (client as unknown as Record<string, Unary<object, { status: string }>>).Check.call(client, { service: '' }, { deadline: Date.now() + timeoutMs },
        (err, res) => resolve(!err && res?.status === 'SERVING'));
    }),
    close: () => client.close(),
  };
}
