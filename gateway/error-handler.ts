// The error body for every refusal: our own ApiErrors, the body parser's, the router's, and anything else Express
// marks as a client error (status 4xx) keep their status; the rest is a 500 that is logged.
import type { NextFunction, Request, Response } from 'express';
import { ApiError, errors } from '../lib/errors.ts';
import { log } from '../lib/log.ts';

type HttpishError = { type?: string; status?: number; statusCode?: number; code?: string; expose?: boolean; message?: string };

export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  const e = (err ?? {}) as HttpishError;
  const status = e.status ?? e.statusCode;
  switch (e.type) {
    case 'entity.too.large':
      return errors.bodyTooLarge();
    case 'entity.parse.failed':
      return errors.badJson();
    case 'charset.unsupported':
      return errors.unreadable('Unsupported charset: send JSON in UTF-8', 415, 'content-type');
    case 'encoding.unsupported':
      return errors.unreadable('Unsupported content-encoding: use gzip, deflate or br, or none', 415, 'content-encoding');
  }
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
  // The router could not decode a path parameter.
  if (err instanceof URIError) return errors.invalid('path', 'malformed percent-encoding');
  // A body that its content-encoding cannot decompress (zlib's codes).
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) return errors.invalid('content-encoding', 'the body is not valid data in this content-encoding');
  return errors.unreadable(e.expose && e.message ? `The request could not be read: ${e.message}` : 'The request could not be read', status);
}

export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  let e = toApiError(err);
  if (!e) {
    log.error('unhandled error', { err, route: req.route?.path ?? null, method: req.method });
    e = errors.internal();
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (e.headers) res.set(e.headers);
  res.status(e.status).json(e.toBody());
}
