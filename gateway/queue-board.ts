// The queue dashboard (bull-board) at /admin/queues: every connector's queue and the merchant webhook queue, their
// jobs, and retry of failed ones. Behind the admin key, two ways (docs/decisions.md, "queues (issue 23)"):
// - the api-key header (scripts, curl, tests), as on every admin route;
// - a session cookie for a browser (which cannot send the header): the sign-in form at /admin/queues/login takes the
//   admin key once and sets `bnpl_admin_session` (HttpOnly, SameSite=Strict, Secure over https, Path=/admin/queues)
//   holding a random session id; Redis keeps only its hash, with a TTL, and the hash of the admin key it was opened
//   with, so changing ADMIN_API_KEY closes every session. A state-changing call on a session must come from the
//   gateway's own origin (Origin header), besides SameSite.
// The UI's scripts, styles and images are served from node_modules/@bull-board/ui; its page's one external link (a
// web font) is dropped, and a Content-Security-Policy keeps the page to its own origin.
import { selfOnlyCsp } from './csp.ts';
import { cookieOf } from './cookies.ts';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { appRoutes } from '@bull-board/api/dist/routes.js';
import type { IServerAdapter, QueueAdapterOptions } from '@bull-board/api/typings/app';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import express, { type NextFunction, type Request, type RequestHandler, type Response, Router } from 'express';
import type { Redis } from 'ioredis';
import { config } from '../lib/config.ts';
import { errors } from '../lib/errors.ts';
import { log } from '../lib/log.ts';
import { ROUTING } from './scope.ts';

export const QUEUE_BOARD_PATH = '/admin/queues';
export const SESSION_COOKIE = 'bnpl_admin_session';

/** Only what the page and its scripts need: nothing from another origin. */
// The page's loading indicator and the UI's components set inline styles.
const CSP = selfOnlyCsp({ inlineStyles: true, extra: ["base-uri 'self'"] });

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const isAdminKey = (key: string | undefined): boolean => !!key && !!config.adminApiKey && key.length <= 256 && sameSecret(key, config.adminApiKey);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;display:flex;justify-content:center;padding-top:12vh}
main{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;width:22rem}h1{font-size:1.2rem;margin-top:0}
label{display:block;margin-bottom:.4rem}input{width:100%;box-sizing:border-box;padding:.5rem;margin-bottom:1rem;font:inherit}
button{padding:.5rem 1rem;font:inherit}.error{color:#b00020}</style></head>
<body><main>${body}</main></body></html>`;
}

const signInPage = (message?: string) =>
  page(
    'Queues: sign in',
    `<h1>Queue dashboard</h1>
<p>Sign in with the admin API key (ADMIN_API_KEY).</p>
${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="${QUEUE_BOARD_PATH}/login">
<label for="api_key">Admin API key</label>
<input id="api_key" name="api_key" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button>
</form>`,
  );

const signOutPage = () =>
  page(
    'Queues: sign out',
    `<h1>Queue dashboard</h1>
<form method="post" action="${QUEUE_BOARD_PATH}/logout"><button type="submit">Sign out</button></form>
<p><a href="${QUEUE_BOARD_PATH}/">Back to the queues</a></p>`,
  );

/** Admin sessions in Redis: the key is the hash of the cookie's id; the value the hash of the admin key then. */
class Sessions {
  private readonly redis: Redis;
  private readonly ttlMs: number;
  constructor(redis: Redis, ttlMs: number) {
    this.redis = redis;
    this.ttlMs = ttlMs;
  }
  private key = (id: string) => `${config.redisPrefix}:admin-session:${sha256(id)}`;

  async open(): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(id), sha256(config.adminApiKey), 'PX', this.ttlMs);
    return id;
  }

  /** Whether the id names a live session opened with today's admin key. */
  async valid(id: string | undefined): Promise<boolean> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id) || !config.adminApiKey) return false;
    const opened = await this.redis.get(this.key(id));
    return !!opened && sameSecret(opened, sha256(config.adminApiKey));
  }

  async close(id: string | undefined): Promise<void> {
    if (id) await this.redis.del(this.key(id));
  }
}

/** Whether a request carrying the session cookie comes from the gateway's own pages (Origin, sent on every POST/PUT/PATCH/DELETE by browsers). */
function sameOrigin(req: Request): boolean {
  const origin = req.header('origin');
  if (!origin) return false;
  try {
    return new URL(origin).host === req.host;
  } catch {
    return false;
  }
}

type EngineFn = (path: string, options: object, done: (err: Error | null, html?: string) => void) => void;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface QueueBoardOptions {
  /** Every connector's queue (one per implemented connector) and the webhook queue; asked once, at the first request. */
  queues: () => Queue[];
  redis: Redis;
}

/** The dashboard, its sign-in and its guard, to be mounted at QUEUE_BOARD_PATH before the JSON body parser. */
export function queueBoard({ queues, redis }: QueueBoardOptions): Router {
  const sessions = new Sessions(redis, config.adminSessionTtlMs);
  const serverAdapter = new ExpressAdapter().setBasePath(QUEUE_BOARD_PATH);
  // Paths spelt otherwise than declared match nothing here either (gateway/scope.ts): set before bull-board declares its routes.
  const sub = serverAdapter.getRouter() as express.Express;
  sub.set('case sensitive routing', ROUTING.caseSensitive);
  sub.set('strict routing', ROUTING.strict);
  sub.disable('x-powered-by');
  sub.set('etag', false);
  // The queues are handed over on the first request the guard lets through (buildApp declares routes before any runs).
  const { setQueues } = createBullBoard({
    queues: [],
    // @bull-board/express 9.10.1 declares its own copy of @bull-board/api's types (9.10.1); the two agree.
    serverAdapter: serverAdapter as unknown as IServerAdapter,
    options: {
      uiConfig: { boardTitle: 'BNPL queues', miscLinks: [{ text: 'Sign out', url: `${QUEUE_BOARD_PATH}/logout` }] },
    },
  });
  let shown: Map<string, Queue> | undefined;
  const shownQueues = (): Map<string, Queue> => {
    if (!shown) {
      const list = queues();
      // allowCompletedRetries (read by bull-board, missing from its types): the UI offers no retry of a completed job.
      setQueues(list.map((q) => new BullMQAdapter(q, { allowCompletedRetries: false } as Partial<QueueAdapterOptions>)));
      shown = new Map(list.map((q) => [q.name, q]));
    }
    return shown;
  };
  const board = serverAdapter.getRouter() as express.Express & { engines: Record<string, EngineFn | undefined> };
  // The UI's page links a web font on a CDN: dropped (the CSS falls back to the system's fonts).
  const render = board.engines['.ejs'];
  if (render) {
    board.engine('ejs', (path: string, options: object, done: (err: Error | null, html?: string) => void) =>
      render(path, options, (err: Error | null, html?: string) => done(err, html?.replace(/<link\b[^>]*href="https?:\/\/[^"]*"[^>]*>/gi, ''))),
    );
  }

  const router = Router({ caseSensitive: ROUTING.caseSensitive, strict: ROUTING.strict });
  router.use((_req: Request, res: Response, next: NextFunction) => {
    // same-origin, not the gateway's no-referrer: under no-referrer a browser sends `Origin: null` on the form's POST
    // and the board's PUTs, and the Origin check below could not tell them from a forged request.
    res.set({ 'content-security-policy': CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'same-origin' });
    next();
  });
  const form = express.urlencoded({ extended: false, limit: '4kb', type: () => true });
  const secure = (req: Request) => req.secure;
  const cookieOptions = (req: Request) => ({ httpOnly: true, secure: secure(req), sameSite: 'strict' as const, path: QUEUE_BOARD_PATH });

  router.get('/login', (_req, res) => res.type('html').send(signInPage()));
  router.post('/login', form, async (req, res, next) => {
    try {
      if (req.header('origin') && !sameOrigin(req)) return next(errors.forbidden('Sign in from the gateway’s own page (the Origin header names another site)'));
      const key = typeof req.body?.api_key === 'string' ? req.body.api_key : undefined;
      if (!isAdminKey(key)) {
        log.warn('queue dashboard: sign-in refused', { address: req.ip });
        return res.status(401).type('html').send(signInPage('That is not the admin API key.'));
      }
      const id = await sessions.open();
      res.cookie(SESSION_COOKIE, id, { ...cookieOptions(req), maxAge: config.adminSessionTtlMs });
      res.redirect(303, `${QUEUE_BOARD_PATH}/`);
    } catch (err) {
      next(err);
    }
  });
  router.get('/logout', (_req, res) => res.type('html').send(signOutPage()));
  router.post('/logout', async (req, res, next) => {
    try {
      if (req.header('origin') && !sameOrigin(req))
        return next(errors.forbidden('Sign out from the gateway’s own page (the Origin header names another site)'));
      await sessions.close(cookieOf(req, SESSION_COOKIE));
      res.clearCookie(SESSION_COOKIE, cookieOptions(req));
      res.redirect(303, `${QUEUE_BOARD_PATH}/login`);
    } catch (err) {
      next(err);
    }
  });

  // Everything else (the page, its assets, its JSON API): the admin key in the api-key header, or a session.
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    try {
      const header = req.header('api-key');
      if (header !== undefined) return isAdminKey(header) ? next() : next(errors.unauthorized());
      const session = cookieOf(req, SESSION_COOKIE);
      if (await sessions.valid(session)) {
        if (!SAFE.has(req.method) && !sameOrigin(req)) {
          return next(errors.forbidden('A change through the dashboard must come from its own page (Origin header), or carry the api-key header'));
        }
        return next();
      }
      // A browser (or anything asking for a page) gets the sign-in form; API calls and assets the API's 401.
      if (req.method === 'GET' && !req.path.startsWith('/api/') && !req.path.startsWith('/static/') && req.accepts(['json', 'html']) === 'html') {
        return res.status(401).type('html').send(signInPage());
      }
      next(errors.unauthorized());
    } catch (err) {
      next(err);
    }
  });
  // A completed job is not run again from the board (nor by its API): the provider call it made is not repeated by hand.
  router.put('/api/queues/:queueName/retry/:queueStatus', (req, _res, next) =>
    req.params.queueStatus === 'failed' ? next() : next(errors.invalid('queueStatus', 'only failed jobs are retried from the dashboard')),
  );
  router.put('/api/queues/:queueName/:jobId/retry', async (req, _res, next) => {
    try {
      const job = await shownQueues().get(String(req.params.queueName))?.getJob(String(req.params.jobId));
      if (job && (await job.isCompleted())) return next(errors.invalid('jobId', 'the job completed; only failed jobs are retried from the dashboard'));
      next();
    } catch (err) {
      next(err);
    }
  });

  // bull-board's API router matches paths case-insensitively and with or without a trailing slash: only the exact
  // spellings of its routes reach it (the gateway's ROUTING), anything else ends in the gateway's 404 IR_02. A
  // function, not a mounted Router: the routes are bull-board's (test/support/routes.ts walks the gateway's own;
  // test/queue-board.test.ts checks these).
  const toBoard: RequestHandler = (req, res, next) => {
    shownQueues();
    // bull-board's express app sets its own request and response prototypes; a path it does not serve comes back to
    // the gateway's with them restored (what app.use does for a mounted app).
    const [request, response] = [Object.getPrototypeOf(req), Object.getPrototypeOf(res)];
    board(req, res, (err?: unknown) => {
      Object.setPrototypeOf(req, request);
      Object.setPrototypeOf(res, response);
      next(err);
    });
  };
  const exact = Router(ROUTING);
  for (const r of appRoutes.api) for (const m of [r.method].flat()) for (const path of [r.route].flat()) exact[m](path, toBoard);
  for (const path of [appRoutes.entryPoint.route].flat()) exact.get(path, toBoard);
  exact.get('/static/*asset', toBoard);
  router.use((req, res, next) => exact(req, res, next));
  return router;
}
