// The merchant dashboard at /dashboard (issue 23): server-rendered pages, forms parsed here (urlencoded, 16 kB), no
// script, a self-only CSP. Routes are declared with their full paths (DASHBOARD_PATH + ...) on routers mounted without
// a prefix, so the gateway's strict, case-sensitive routing holds for them too (gateway/scope.ts).
//
// What a group of pages (e.g. payment-pages.ts) gets, and how it uses it:
// - `ctx: DashboardContext` (context.ts): db, deps (the API's operations take them), setup (MerchantStore), changed,
//   and `ctx.signedIn`: put it first on every page; it sets `res.locals.dashboard: DashboardSession`
//   { merchantId, email, csrfToken } (or redirects to /dashboard/signin); `sessionOf(res)` (session.ts) reads it.
//   Read only that merchant's data.
// - `verifyCsrf` (session.ts): after ctx.signedIn on every POST; each form carries `csrfField(session)` (layout.ts).
// - `dashboardPage({ title, session, active, body })` (layout.ts) renders the page; `body` is built with
//   html`...` (html.ts: escapes every value; raw() only for our own constants). forms.ts: field() (a labelled input
//   with its error beside it), notice(), fieldErrors(zodError), apiFieldError(err) (an ApiError's param as a field
//   error), formText(body or query, name).
// - Throwing an ApiError (lib/errors.ts) renders an error page with its status and message (dashboardErrors below).
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { Db } from 'mongodb';
import { type ApiError, errors } from '../../lib/errors.ts';
import { log } from '../../lib/log.ts';
import { MerchantStore } from '../../lib/merchant-store.ts';
import { selfOnlyCsp } from '../csp.ts';
import { toApiError } from '../error-handler.ts';
import type { Deps } from '../operations.ts';
import { ROUTING } from '../scope.ts';
import { authPages } from './auth-pages.ts';
import type { DashboardContext } from './context.ts';
import { html } from './html.ts';
import { DASHBOARD_PATH, STYLESHEET_PATH, dashboardPage, publicPage } from './layout.ts';
import { paymentPages } from './payment-pages.ts';
import { SIGN_IN_PATH, DashboardSessions, requireSession } from './session.ts';
import { connectorPages } from './connector-pages.ts';
import { setupPages } from './setup-pages.ts';
import { webhookPages } from './webhook-pages.ts';
import { STYLESHEET } from './stylesheet.ts';

const CSP = selfOnlyCsp({ extra: ["base-uri 'none'"] });

/** An error as a page: the API's status and message; a 500 (logged) for anything unexpected. */
function dashboardErrors(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(err);
  let e: ApiError | null = toApiError(err);
  if (!e) {
    log.error('dashboard: unhandled error', { err, method: req.method, path: req.path });
    e = errors.internal();
  }
  if (e.headers) res.set(e.headers);
  const title = e.status === 429 ? 'Too many attempts' : e.status === 403 ? 'Refused' : e.status === 404 ? 'Not found' : 'Something went wrong';
  const body = html`<h1>${title}</h1><div class="alert error" role="alert">${e.message}</div>
<p><a href="${res.locals.dashboard ? DASHBOARD_PATH : SIGN_IN_PATH}">Back to the dashboard</a></p>`;
  const session = res.locals.dashboard;
  res
    .status(e.status)
    .type('html')
    .send(session ? dashboardPage({ title, session, active: null, body }) : publicPage({ title, body }));
}

export function dashboardRouter(db: Db, deps: Deps): Router {
  const setup = new MerchantStore(db);
  const sessions = new DashboardSessions(deps.redis);
  const ctx: DashboardContext = { db, deps, setup, sessions, signedIn: requireSession(sessions, setup), changed: (id) => deps.setup.changed(id) };
  const r = Router(ROUTING);
  r.use(DASHBOARD_PATH, (_req: Request, res: Response, next: NextFunction) => {
    // same-origin, not the gateway's no-referrer: under no-referrer a browser sends `Origin: null` on a form's POST,
    // which the CSRF check could not tell from a forged one.
    res.set({ 'content-security-policy': CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'same-origin' });
    next();
  });
  r.use(DASHBOARD_PATH, express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }));
  r.get(STYLESHEET_PATH, (_req, res) => {
    res.set('cache-control', 'public, max-age=300').type('css').send(STYLESHEET);
  });
  r.use(authPages(ctx));
  r.use(setupPages(ctx));
  r.use(connectorPages(ctx));
  r.use(webhookPages(ctx));
  r.use(paymentPages(ctx));
  r.use(DASHBOARD_PATH, dashboardErrors);
  return r;
}
