// The merchant dashboard's users, sign-in sessions and CSRF protection (docs/decisions.md, "Merchant dashboard core").
// - Users: MongoDB `dashboard_users`, one per email (unique index; email trimmed and lower-cased), each owning one
//   merchant account; the password only as a scrypt hash (password.ts).
// - Sessions: a random id in the cookie `bnpl_dashboard_session` (HttpOnly, SameSite=Strict, Secure when the request
//   came over https, directly or through a trusted proxy; Path=/dashboard). Redis keeps the id's hash only, with a TTL,
//   mapped to the merchant, the email and the session's CSRF token (as gateway/queue-board.ts does for the admin).
// - CSRF: every POST of a signed-in page carries the session's synchronizer token in `_csrf` (compared in constant
//   time), and a POST whose Origin (or, without one, Referer) names another origin is refused, besides SameSite.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Db } from 'mongodb';
import { z } from 'zod';
import { config } from '../../lib/config.ts';
import { ApiError } from '../../lib/errors.ts';
import type { MerchantStore } from '../../lib/merchant-store.ts';
import { cookieOf } from '../cookies.ts';
import { addressKey, rateLimit } from '../rate-limit.ts';
import { DASHBOARD_PATH, type DashboardSession } from './layout.ts';

export type { DashboardSession };

export const SESSION_COOKIE = 'bnpl_dashboard_session';
export const SIGN_IN_PATH = `${DASHBOARD_PATH}/signin`;

declare module 'express-serve-static-core' {
  interface Locals {
    /** Set by requireSession on every signed-in dashboard page. */
    dashboard?: DashboardSession;
  }
}

export interface DashboardUserDoc {
  /** Trimmed and lower-cased (normaliseEmail); unique. */
  email: string;
  merchant_id: string;
  /** `scrypt$ln=..,r=..,p=..$salt$hash` (password.ts). */
  password_hash: string;
  created_at: string;
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export const dashboardUsers = (db: Db) => db.collection<DashboardUserDoc>('dashboard_users');

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const SessionValue = z.object({ merchant_id: z.string(), email: z.string(), csrf_token: z.string() });
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** Signed-in sessions in Redis: the key is the hash of the cookie's id (a leaked Redis dump opens no session). */
export class DashboardSessions {
  private readonly redis: Redis;
  private readonly ttlMs: number;
  constructor(redis: Redis, ttlMs = config.dashboardSessionTtlMs) {
    this.redis = redis;
    this.ttlMs = ttlMs;
  }
  get ttl(): number {
    return this.ttlMs;
  }
  private key = (id: string) => `${config.redisPrefix}:dashboard-session:${sha256(id)}`;

  /** A new session (a new id and CSRF token at every sign-in); answers the id for the cookie. */
  async open(merchantId: string, email: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const value = { merchant_id: merchantId, email, csrf_token: randomBytes(32).toString('base64url') };
    await this.redis.set(this.key(id), JSON.stringify(value), 'PX', this.ttlMs);
    return id;
  }

  async get(id: string | undefined): Promise<DashboardSession | null> {
    if (!id || !SESSION_ID.test(id)) return null;
    const stored = await this.redis.get(this.key(id));
    if (!stored) return null;
    let json: unknown;
    try {
      json = JSON.parse(stored);
    } catch {
      return null;
    }
    const v = SessionValue.safeParse(json);
    return v.success ? { merchantId: v.data.merchant_id, email: v.data.email, csrfToken: v.data.csrf_token } : null;
  }

  async close(id: string | undefined): Promise<void> {
    if (id && SESSION_ID.test(id)) await this.redis.del(this.key(id));
  }
}

/** The session cookie's attributes; Secure when the request came over https (req.secure honours TRUST_PROXY). */
export const sessionCookieOptions = (req: Request) => ({ httpOnly: true, secure: req.secure, sameSite: 'strict' as const, path: DASHBOARD_PATH });

export const sessionIdOf = (req: Request) => cookieOf(req, SESSION_COOKIE);

/**
 * The signed-in merchant in res.locals.dashboard, or a redirect to the sign-in page. A session whose merchant account
 * was deleted is closed.
 */
export function requireSession(sessions: DashboardSessions, setup: MerchantStore): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const id = sessionIdOf(req);
    const session = await sessions.get(id);
    if (session && (await setup.merchant(session.merchantId))) {
      res.locals.dashboard = session;
      return next();
    }
    if (session) await sessions.close(id);
    res.redirect(303, SIGN_IN_PATH);
  };
}

/** The signed-in merchant of a page behind requireSession (a programming error without it). */
export function sessionOf(res: Response): DashboardSession {
  const s = res.locals.dashboard;
  if (!s) throw new Error('a dashboard page without requireSession');
  return s;
}

/** Why the request's Origin (or, without one, its Referer) shows it came from another site; null when it did not. */
export function foreignOrigin(req: Request): string | null {
  const origin = req.header('origin');
  const referer = req.header('referer');
  const from = origin ?? referer;
  if (from === undefined) return null;
  let host: string;
  try {
    host = new URL(from).host;
  } catch {
    return `${origin !== undefined ? 'Origin' : 'Referer'} ${JSON.stringify(from.slice(0, 100))} is not an origin of this dashboard`;
  }
  return host === req.host ? null : `${origin !== undefined ? 'Origin' : 'Referer'} names another site (${host})`;
}

/** 403: a form that did not come from this dashboard's own page (dashboard pages render it as HTML). */
export const csrfRefused = (why: string) =>
  new ApiError(403, 'IR_22', `This form did not come from your dashboard session (${why}); reload the page and try again`);

/** The POSTs without a session (sign in, sign up): refused when they come from another site. */
export const sameOriginForm: RequestHandler = (req, _res, next) => {
  const foreign = foreignOrigin(req);
  next(foreign ? csrfRefused(foreign) : undefined);
};

/** Every POST of a signed-in page, after requireSession: the session's token in `_csrf`, and a same-origin request. */
export const verifyCsrf: RequestHandler = (req, res, next) => {
  const session = res.locals.dashboard;
  if (!session) return next(csrfRefused('no session'));
  const foreign = foreignOrigin(req);
  if (foreign) return next(csrfRefused(foreign));
  const body: unknown = req.body;
  const token = typeof body === 'object' && body !== null && '_csrf' in body && typeof body._csrf === 'string' ? body._csrf : undefined;
  if (!token) return next(csrfRefused('the _csrf field is missing'));
  if (!sameToken(token, session.csrfToken)) return next(csrfRefused('the _csrf field does not match the session'));
  next();
};

/** The sign-in limit: DASHBOARD_SIGNIN_ATTEMPTS per email and client address in 15 minutes (429 with Retry-After). */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export function signInLimit(redis: Redis): RequestHandler {
  return rateLimit(
    redis,
    config.dashboardSignInAttempts,
    (req) => {
      const body: unknown = req.body;
      const email = typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string' ? normaliseEmail(body.email) : '';
      const ip = req.ip ?? req.socket.remoteAddress;
      return email && ip ? `dashboard-signin:${sha256(email)}:${addressKey(ip)}` : undefined;
    },
    SIGN_IN_WINDOW_MS,
  );
}
