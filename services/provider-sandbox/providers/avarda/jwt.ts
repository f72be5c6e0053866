// The JWTs the sandbox's Avarda issues: partner tokens (POST /api/partner/tokens, valid AVARDA_SANDBOX_TOKEN_TTL_S)
// and purchase JWTs (what Avarda Checkout's form is initialized with). HS256 with a key of the sandbox's own.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

export interface Claims {
  sub: string;
  typ: 'partner' | 'purchase';
  iat: number;
  exp: number;
  jti: string;
}

export class JwtIssuer {
  private key = randomBytes(32);
  /** Partner tokens issued (a view for tests: the runtime's cache should keep this low). */
  issued = 0;

  /** The signing key and count, kept across a restart so the tokens and purchase JWTs handed out stay valid. */
  save() {
    return { key: this.key.toString('base64'), issued: this.issued };
  }
  load(saved: { key?: string; issued?: number }) {
    if (saved.key) this.key = Buffer.from(saved.key, 'base64');
    this.issued = saved.issued ?? 0;
  }

  sign(sub: string, typ: Claims['typ'], ttlS: number, now = Date.now()): { jwt: string; exp: number } {
    const iat = Math.floor(now / 1000);
    const claims: Claims = { sub, typ, iat, exp: iat + ttlS, jti: randomBytes(8).toString('hex') };
    const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
    if (typ === 'partner') this.issued += 1;
    return { jwt: `${head}.${createHmac('sha256', this.key).update(head).digest('base64url')}`, exp: claims.exp };
  }

  /** The subject of a JWT of ours of that type: 'expired' when it is one no longer valid, null when it is none. */
  verify(jwt: string, typ: Claims['typ'], now = Date.now()): string | 'expired' | null {
    const [h, p, s] = jwt.split('.');
    if (!h || !p || !s) return null;
    const expected = Buffer.from(createHmac('sha256', this.key).update(`${h}.${p}`).digest('base64url'));
    const given = Buffer.from(s);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Claims;
      if (claims.typ !== typ) return null;
      return claims.exp * 1000 <= now ? 'expired' : claims.sub;
    } catch {
      return null;
    }
  }
}
