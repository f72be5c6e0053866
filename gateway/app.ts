// The HTTP edge: authentication, validation, and the error body for every refusal.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Db } from 'mongodb';
import { ApiError, errors } from '../lib/errors.ts';
import { tracingMiddleware } from '../lib/http-tracing.ts';
import { log } from '../lib/log.ts';
import { keyAuth } from './auth.ts';
import { idempotency } from './idempotency.ts';
import { openApiDocument } from './openapi.ts';
import { rateLimit } from './rate-limit.ts';
import type { Deps } from './operations.ts';
import { accountsRouter } from './routes/accounts.ts';
import { customersRouter } from './routes/customers.ts';
import { paymentsRouter } from './routes/payments.ts';
import { paymentLinksRouter } from './routes/payment-links.ts';

export const BODY_LIMIT = '256kb';

export function buildApp(db: Db, deps: Deps, health: () => Promise<{ ok: boolean; parts: Record<string, unknown> }>) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(tracingMiddleware());
  app.use(express.json({ limit: BODY_LIMIT, type: () => true }));

  app.get('/health', async (_req, res) => {
    const h = await health();
    res.status(h.ok ? 200 : 503).json({ status: h.ok ? 'ok' : 'degraded', parts: h.parts });
  });
  const openapi = openApiDocument();
  app.get('/openapi.json', (_req, res) => res.json(openapi));

  app.use(accountsRouter(db, (merchantId) => deps.setup.changed(merchantId)));
  app.use('/payments', keyAuth(db, { publishable: true }), rateLimit(deps.redis), idempotency(db));
  app.use('/customers', keyAuth(db), rateLimit(deps.redis), idempotency(db));
  app.use(paymentsRouter(deps));
  app.use(customersRouter(deps.customers));
  app.use(paymentLinksRouter(db, deps, deps.links));

  app.use((_req: Request, _res: Response, next: NextFunction) => next(errors.routeNotFound()));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let e: ApiError;
    if (err instanceof ApiError) e = err;
    else if ((err as { type?: string }).type === 'entity.too.large') e = errors.bodyTooLarge();
    else if ((err as { type?: string }).type === 'entity.parse.failed') e = errors.badJson();
    else if ((err as { type?: string }).type === 'encoding.unsupported' || (err as { type?: string }).type === 'charset.unsupported') e = errors.invalid('content-type', 'unsupported encoding');
    else {
      log.error('unhandled error', { err, route: req.path });
      e = errors.internal();
    }
    if (e.headers) res.set(e.headers);
    res.status(e.status).json(e.toBody());
  });
  return app;
}
