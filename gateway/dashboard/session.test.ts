import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/errors.ts';
import { foreignOrigin, normaliseEmail, verifyCsrf } from './session.ts';

const TOKEN = 'a'.repeat(43);

function request(o: { body?: unknown; origin?: string; referer?: string; host?: string }): Request {
  const headers: Record<string, string | undefined> = { origin: o.origin, referer: o.referer };
  return { body: o.body, host: o.host ?? 'gateway.example:8080', header: (name: string) => headers[name.toLowerCase()] } as unknown as Request;
}

/** What verifyCsrf passed on: undefined (admitted) or the error. */
function run(req: Request, signedIn = true): unknown {
  const res = { locals: signedIn ? { dashboard: { merchantId: 'm', email: 'e@x.example', csrfToken: TOKEN } } : {} } as unknown as Response;
  let passed: unknown = 'not called';
  verifyCsrf(req, res, ((err?: unknown) => {
    passed = err;
  }) as NextFunction);
  return passed;
}

const refused = (v: unknown) => v instanceof ApiError && v.status === 403;

describe('verifyCsrf', () => {
  it("admits the session's token from the dashboard's own origin", () => {
    expect(run(request({ body: { _csrf: TOKEN }, origin: 'http://gateway.example:8080' }))).toBeUndefined();
    // No Origin, a same-origin Referer.
    expect(run(request({ body: { _csrf: TOKEN }, referer: 'http://gateway.example:8080/dashboard/keys' }))).toBeUndefined();
  });

  it('refuses a missing, empty, wrong, longer or shorter token (403)', () => {
    for (const body of [{}, { _csrf: '' }, { _csrf: 'b'.repeat(43) }, { _csrf: `${TOKEN}a` }, { _csrf: TOKEN.slice(1) }, { _csrf: [TOKEN] }, undefined]) {
      expect(refused(run(request({ body, origin: 'http://gateway.example:8080' }))), JSON.stringify(body)).toBe(true);
    }
  });

  it('refuses the right token from another origin, a null origin, or without a session', () => {
    expect(refused(run(request({ body: { _csrf: TOKEN }, origin: 'https://evil.example' })))).toBe(true);
    expect(refused(run(request({ body: { _csrf: TOKEN }, origin: 'null' })))).toBe(true);
    expect(refused(run(request({ body: { _csrf: TOKEN }, referer: 'https://evil.example/page' })))).toBe(true);
    expect(refused(run(request({ body: { _csrf: TOKEN }, origin: 'http://gateway.example:8080' }), false))).toBe(true);
  });
});

describe('foreignOrigin', () => {
  it('judges Origin first, then Referer; neither: not foreign (the token decides)', () => {
    expect(foreignOrigin(request({}))).toBeNull();
    expect(foreignOrigin(request({ origin: 'http://gateway.example:8080', referer: 'https://evil.example/' }))).toBeNull();
    expect(foreignOrigin(request({ origin: 'http://gateway.example:9999' }))).toMatch(/another site/);
  });
});

describe('normaliseEmail', () => {
  it('trims and lower-cases', () => {
    expect(normaliseEmail('  Shop@Example.COM ')).toBe('shop@example.com');
  });
});
