// Ratepay's OAuth2 server as the sandbox imitates it: POST /ratepay/oauth/token {client_id, client_secret, audience,
// grant_type: client_credentials} -> {access_token: <JWT>, expires_in, token_type: Bearer}; the API takes the JWT as
// `Authorization: Bearer`. The JWT is HS256-signed with a key of the sandbox's own (made at start).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

export interface TokenClaims {
  sub: string;
  aud: string;
  iat: number;
  exp: number;
  jti: string;
}

export class TokenIssuer {
  private key = randomBytes(32);
  readonly ttlS: number;
  issued = 0;
  constructor(ttlS: number) {
    this.ttlS = ttlS;
  }

  /** The signing key and count, kept across a restart so the tokens handed out stay valid. */
  save() {
    return { key: this.key.toString('base64'), issued: this.issued };
  }
  load(saved: { key?: string; issued?: number }) {
    if (saved.key) this.key = Buffer.from(saved.key, 'base64');
    this.issued = saved.issued ?? 0;
  }

  issue(clientId: string, audience: string, now = Date.now()): string {
    const iat = Math.floor(now / 1000);
    const claims: TokenClaims = { sub: `${clientId}@clients`, aud: audience, iat, exp: iat + this.ttlS, jti: randomBytes(8).toString('hex') };
    const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
    this.issued += 1;
    return `${head}.${createHmac('sha256', this.key).update(head).digest('base64url')}`;
  }

  /** The client id of a valid, unexpired token; null otherwise. */
  verify(token: string, now = Date.now()): string | null {
    const [h, p, s] = token.split('.');
    if (!h || !p || !s) return null;
    const expected = Buffer.from(createHmac('sha256', this.key).update(`${h}.${p}`).digest('base64url'));
    const given = Buffer.from(s);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as TokenClaims;
      if (claims.exp * 1000 <= now || !claims.aud.endsWith('/transaction/management')) return null;
      return claims.sub.replace(/@clients$/, '');
    } catch {
      return null;
    }
  }
}
