// The HTTP edge: authentication, validation, and the error body for every refusal.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Db } from 'mongodb';
import { errors } from '../lib/errors.ts';
import { tracingMiddleware } from '../lib/http-tracing.ts';
import { httpMetricsMiddleware, metricsHandler } from '../lib/metrics.ts';
import { jsonBody, rawBody } from './body.ts';
import { requestLog } from './request-log.ts';
import { errorHandler } from './error-handler.ts';
import { keyAuth } from './auth.ts';
import { idempotency } from './idempotency.ts';
import { serverTiming } from './server-timing.ts';
import { docsRouter } from './docs-page.ts';
import { featureMatrix } from './feature-matrix.ts';
import { byAddress, rateLimit } from './rate-limit.ts';
import { ROUTING } from './scope.ts';
import { config } from '../lib/config.ts';
import type { Health } from '../lib/health.ts';
import type { Deps } from './operations.ts';
import { accountsRouter } from './routes/accounts.ts';
import { customersRouter } from './routes/customers.ts';
import { paymentsRouter } from './routes/payments.ts';
import { paymentLinksRouter } from './routes/payment-links.ts';
import { refundsRouter } from './routes/refunds.ts';
import { disputesRouter } from './routes/disputes.ts';
import { DisputeStore } from '../lib/dispute-store.ts';
import { webhooksRouter } from './routes/webhooks.ts';
import { eventsRouter } from './routes/events.ts';
import { mandatesRouter } from './routes/mandates.ts';
import { ephemeralKeysRouter } from './routes/ephemeral-keys.ts';
import { Mandates } from './mandates.ts';
import { QUEUE_BOARD_PATH, queueBoard } from './queue-board.ts';
import { dashboardRouter } from './dashboard/router.ts';
import { DASHBOARD_PATH } from './dashboard/layout.ts';
import { MANIFESTS } from '../workers/connectors/manifests.ts';
import type { ConnectorName } from '../lib/schemas/common.ts';

/**
 * A router all of whose paths start with one of `prefixes`, entered only by requests whose path does (issue 24: a
 * payment request no longer walks the dashboard's and the admin routes' layers). Exact: routing is case-sensitive and
 * matches the raw path, req.path, so a request under none of the prefixes could match none of the router's layers.
 */
function onlyUnder(prefixes: string[], router: Router) {
  const gate = (req: Request, res: Response, next: NextFunction) => (prefixes.some((p) => req.path.startsWith(p)) ? router(req, res, next) : next());
  // The router's layers stay visible where the app is read for its routes (test/support/routes.ts).
  return Object.assign(gate, { stack: router.stack });
}

export function buildApp(
  db: Db,
  deps: Deps,
  health: () => Promise<{ ok: boolean; parts: Record<string, unknown> }>,
  /** Issue 23: GET /health/live and /health/ready (lib/health.ts): this process and its own dependencies. */
  probes?: Health,
) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Set before the first route: the app's router takes them when it is made. '/payments/LIST' and '/payments/list/'
  // match no route (and no app.use prefix), so every check declared on a route holds for every spelling of its path.
  app.set('case sensitive routing', ROUTING.caseSensitive);
  app.set('strict routing', ROUTING.strict);
  if (config.trustProxy) app.set('trust proxy', /^\d+$/.test(config.trustProxy) ? Number(config.trustProxy) : config.trustProxy);
  app.use(tracingMiddleware());
  // RED per route: http.server.request.duration by method, route pattern and status (lib/metrics.ts).
  app.use(httpMetricsMiddleware());
  // Issue 23: x-request-id on every answer, one access log line per request (inside the request's trace).
  app.use(requestLog());
  // Stopping (SIGTERM): each answer sent from then on (also of a request begun before) closes its connection, so no
  // client sends its next request on a connection the draining gateway is about to close.
  if (probes) {
    app.use((_req: Request, res: Response, next: NextFunction) => {
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: unknown[]) {
        if (probes.draining && !this.headersSent) this.setHeader('connection', 'close');
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as typeof res.writeHead;
      next();
    });
  }
  // Answers can carry keys and client_secrets: none is stored by a browser or proxy; none is sniffed or leaked in a Referer.
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('cache-control', 'no-store');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    next();
  });
  // Before any key lookup: bad keys, admin routes and keyless pages are counted too.
  app.use(rateLimit(deps.redis, config.rateLimitPerAddressPerSecond, byAddress));
  app.use('/webhooks', rawBody());
  // The queue dashboard behind the admin key (header or signed-in session); before the JSON parser: its sign-in form
  // posts a form, and bull-board parses its own API's bodies.
  const boardQueues = () => [...(Object.keys(MANIFESTS) as ConnectorName[]).map((c) => deps.queues.get(c)), deps.webhookQueue.queue];
  app.use(QUEUE_BOARD_PATH, queueBoard({ queues: boardQueues, redis: deps.redis }));
  // The merchant dashboard (issue 23): its own session cookie and CSRF token; parses its forms itself, so before the JSON parser.
  app.use(onlyUnder([DASHBOARD_PATH], dashboardRouter(db, deps)));
  app.use(jsonBody());

  app.get('/health', async (_req, res) => {
    const h = await health();
    // instance_id: the `npm start` run this gateway belongs to (scripts/start.ts checks it answers its own).
    res.status(h.ok ? 200 : 503).json({ status: h.ok ? 'ok' : 'degraded', ...(config.instanceId ? { instance_id: config.instanceId } : {}), parts: h.parts });
  });
  // Prometheus, keyless as scrapers expect: labels carry no id (lib/metrics.ts), so nothing a merchant owns is shown.
  app.get('/metrics', (req, res) => metricsHandler(req, res));
  if (probes) {
    const probe = (req: Request, res: Response, next: NextFunction) => void probes.handle(req, res).then((handled) => handled || next(), next);
    app.get('/health/live', probe);
    app.get('/health/ready', probe);
  }
  app.get('/feature_matrix', (_req, res) => res.json(featureMatrix()));
  // Built at its first request, not at start: the document (0.3 MB of JSON) and its generation are memory the payment
  // path never needs.
  let openapi: Promise<unknown> | undefined;
  app.get('/openapi.json', (_req, res, next) => {
    openapi ??= import('./openapi.ts').then(
      (m) => m.openApiDocument(),
      (err) => {
        openapi = undefined;
        throw err;
      },
    );
    openapi.then((doc) => res.json(doc), next);
  });
  // The API reference, rendered from /openapi.json by Scalar's bundle served from here (keyless, like the document).
  app.use(docsRouter());

  const changed = (merchantId: string) => deps.setup.changed(merchantId);
  app.use(onlyUnder(['/account', '/api_keys'], accountsRouter(db, deps.setup.keys, changed)));
  // Server-Timing (issue 24) on every payment and refund answer, mounted first so it times the whole handling.
  app.use('/payments', serverTiming(), keyAuth(deps.setup.keys, { publishable: true }), rateLimit(deps.redis), idempotency(db));
  app.use('/customers', keyAuth(deps.setup.keys), rateLimit(deps.redis), idempotency(db));
  app.use('/mandates', keyAuth(deps.setup.keys), rateLimit(deps.redis), idempotency(db));
  app.use('/refunds', serverTiming(), keyAuth(deps.setup.keys), rateLimit(deps.redis), idempotency(db));
  app.use('/disputes', keyAuth(deps.setup.keys), rateLimit(deps.redis));
  app.use('/ephemeral_keys', keyAuth(deps.setup.keys), rateLimit(deps.redis), idempotency(db));
  app.use(paymentsRouter(deps));
  const mandates = new Mandates(db, deps.redis, deps.store);
  app.use(customersRouter(deps.customers, mandates));
  app.use(mandatesRouter(mandates, deps.customers));
  app.use(refundsRouter(deps));
  app.use(paymentLinksRouter(deps, deps.links));
  app.use(disputesRouter(new DisputeStore(db)));
  app.use(ephemeralKeysRouter(db, deps.customers));
  // The admin key or the merchant's own secret key (checked by the router).
  app.use(eventsRouter(db, deps.redis, deps.setup.keys));
  // Keyless: the provider calls, and its signature is checked by the route.
  app.use(webhooksRouter(db, deps));

  app.use((_req: Request, _res: Response, next: NextFunction) => next(errors.routeNotFound()));
  app.use(errorHandler);
  return app;
}
