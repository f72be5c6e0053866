// Who may call a route is declared on the route and checked once the route has matched, never decided from the
// path's text: a path test and Express's matching can disagree (case, trailing slash, encoding), and the route
// that runs is what matters. Default: the publishable key is refused (403 IR_22); a route opts in with
// `publishableKey` as its first handler. Routers are case-sensitive and strict, like the app (app.ts).
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { errors } from '../lib/errors.ts';

export const ROUTING = { caseSensitive: true, strict: true } as const;

const CLIENT_CALLABLE = Symbol('publishable key allowed');

/** First handler of a route the publishable key may call (with the payment's client_secret, checked by the route). */
export const publishableKey: RequestHandler = Object.assign((_req: Request, _res: Response, next: NextFunction) => next(), { [CLIENT_CALLABLE]: true });

const isClientCallable = (h: unknown) => typeof h === 'function' && (h as unknown as Record<symbol, unknown>)[CLIENT_CALLABLE] === true;

function scopeGuard(clientCallable: boolean): RequestHandler {
  return (req, _res, next) => {
    if (req.caller?.kind === 'publishable' && !clientCallable) {
      return next(errors.forbidden('This endpoint needs the secret key; the publishable key cannot call it'));
    }
    next();
  };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'all'] as const;

/** A Router whose every route starts with the scope check; so a route added without a thought is secret-key only. */
export function scopedRouter(): Router {
  const r = Router(ROUTING);
  for (const method of METHODS) {
    const declare = r[method].bind(r) as (path: string, ...handlers: RequestHandler[]) => Router;
    (r as unknown as Record<string, unknown>)[method] = (path: string, ...handlers: RequestHandler[]) =>
      declare(path, scopeGuard(isClientCallable(handlers[0])), ...handlers);
  }
  return r;
}
