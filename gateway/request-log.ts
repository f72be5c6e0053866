// Issue 23: every answer carries an `x-request-id` (the caller's when it is a sane token, else a new one), and every
// request leaves one access log line: method, route pattern (never the raw path with its ids), status, duration,
// merchant when known, trace id and request id.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { currentTraceId } from '../lib/telemetry.ts';
import { log as defaultLog } from '../lib/log.ts';

declare module 'express-serve-static-core' {
  interface Request {
    requestId?: string;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';

/** A caller's request id is kept when it is 1 to 128 characters of letters, digits and `-_.:/+=@`; anything else
 * (empty, too long, spaces, control characters, a list) is replaced, so it cannot forge log lines or headers. */
export function saneRequestId(raw: unknown): string | undefined {
  return typeof raw === 'string' && /^[A-Za-z0-9._:/+=@-]{1,128}$/.test(raw) ? raw : undefined;
}

export const newRequestId = (): string => `req_${randomUUID().replace(/-/g, '')}`;

/**
 * The route pattern a request matched ('/payments/:payment_id/capture'), or null when none did (a 404, or a refusal
 * before routing: a bad key, the rate limit). Never the raw path: ids stay out of the access log's route.
 */
export function routePattern(req: Pick<Request, 'route' | 'baseUrl'>): string | null {
  const path = req.route?.path as unknown;
  if (typeof path !== 'string') return null;
  return `${req.baseUrl ?? ''}${path}` || '/';
}

/** First middleware: the request id (answered on every response, also refusals and errors) and the access log line. */
export function requestLog(log: Pick<typeof defaultLog, 'info' | 'debug'> = defaultLog) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const requestId = saneRequestId(req.header(REQUEST_ID_HEADER)) ?? newRequestId();
    req.requestId = requestId;
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const traceId = currentTraceId() ?? null;
    // 'close' fires for every request, also when the client went away before the answer (logged with its status so far).
    res.once('close', () => {
      const params = (req.params ?? {}) as Record<string, unknown>;
      const merchant = req.merchantId ?? (typeof params.merchant_id === 'string' ? params.merchant_id : undefined);
      const route = routePattern(req);
      // Health probes (every few seconds from an orchestrator) at debug level: they would drown the access log.
      const level = route?.startsWith('/health') && res.statusCode === 200 ? 'debug' : 'info';
      log[level]('request', {
        method: req.method,
        route,
        status: res.statusCode,
        duration_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        merchant_id: merchant ?? null,
        trace_id: traceId,
        request_id: requestId,
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    });
    next();
  };
}
