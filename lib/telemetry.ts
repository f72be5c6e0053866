// OpenTelemetry for every process: one tracer provider, W3C trace context across HTTP, gRPC and BullMQ, and an
// OTLP/HTTP exporter when OTEL_EXPORTER_OTLP_ENDPOINT is set. Instrumentation is explicit (a span where work
// crosses a process or touches storage) so that it works the same under ES modules and type stripping.
// Metrics go through the same pipeline: one MeterProvider with the traces' resource (service.name), read by a
// Prometheus exporter that each process serves at GET /metrics (lib/metrics.ts).
import { context, metrics, propagation, trace, SpanKind, SpanStatusCode, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { NodeTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { createRequire } from 'node:module';
import { setLogService } from './log.ts';

// Loaded only when traces are exported (an OTLP endpoint is set): otherwise its code is memory no process uses.
const require = createRequire(import.meta.url);
const otlpExporter = (): OTLPTraceExporter =>
  new (require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();

let provider: NodeTracerProvider | undefined;
let meterProvider: MeterProvider | undefined;
let exporter: PrometheusExporter | undefined;

/** The Prometheus reader of this process's metrics (served by lib/metrics.ts); undefined before initTelemetry. */
export const prometheusExporter = (): PrometheusExporter | undefined => exporter;

export function initTelemetry(serviceName: string): void {
  setLogService(serviceName);
  if (provider) return;
  const spanProcessors: SpanProcessor[] = [];
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    spanProcessors.push(new BatchSpanProcessor(otlpExporter()));
  }
  const resource = resourceFromAttributes({ 'service.name': serviceName, 'service.namespace': 'bnpl' });
  provider = new NodeTracerProvider({ resource, spanProcessors });
  provider.register();
  // The exporter's own server stays off: the gateway and the sandbox answer /metrics on their port, the other
  // processes on their health server (HEALTH_PORT, lib/health.ts startHealthServer).
  exporter = new PrometheusExporter({ preventServerStart: true });
  meterProvider = new MeterProvider({ resource, readers: [exporter] });
  metrics.setGlobalMeterProvider(meterProvider);
}

export async function shutdownTelemetry(): Promise<void> {
  await Promise.all([provider?.shutdown().catch(() => undefined), meterProvider?.shutdown().catch(() => undefined)]);
}

export const tracer = () => trace.getTracer('bnpl');

/** Runs fn inside a new active span; records errors and ends the span. */
export async function withSpan<T>(
  name: string,
  opts: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = opts.parent ?? context.active();
  return tracer().startActiveSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Trace context of the active span as carrier headers (traceparent, tracestate). */
export function injectContext(carrier: Record<string, string> = {}): Record<string, string> {
  propagation.inject(context.active(), carrier);
  return carrier;
}

export function extractContext(carrier: Record<string, unknown>): Context {
  return propagation.extract(context.active(), carrier, {
    get: (c, key) => {
      const v = (c as Record<string, unknown>)[key];
      return Array.isArray(v) ? v.map(String) : v === undefined ? undefined : String(v);
    },
    keys: (c) => Object.keys(c as object),
  });
}

export function currentTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

export { SpanKind };
