// Express middleware: a SERVER span per request that continues the caller's trace (W3C traceparent).
import type { NextFunction, Request, Response } from 'express';
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { extractContext, tracer } from './telemetry.ts';

export function tracingMiddleware() {
  return (req: Request, res: Response, next: NextFunction) => {
    const parent = extractContext(req.headers as Record<string, unknown>);
    const span = tracer().startSpan(
      `${req.method} ${req.path}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'url.path': req.path },
      },
      parent,
    );
    res.on('finish', () => {
      const route = req.route?.path as string | undefined;
      if (route) span.updateName(`${req.method} ${req.baseUrl}${route}`);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), () => next());
  };
}
