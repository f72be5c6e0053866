// A merchant dashboard user over plain HTTP (issue 23): the session cookie, and the CSRF token of the last page read,
// as a browser keeps them; sign up through the dashboard's own form.
import type { Stack } from './stack.ts';

export const DASHBOARD_PASSWORD = 'correct horse battery staple';
let n = 0;
export const newDashboardEmail = () => `shop.${Date.now()}.${n++}@example.com`;

/** The text of the element with this id (its first text node). */
export const textOf = (html: string, id: string) => new RegExp(`id="${id}"[^>]*>([^<]+)<`).exec(html)?.[1];

export class DashboardClient {
  cookie = '';
  csrf = '';
  private readonly stack: Stack;
  readonly origin: string;
  constructor(stack: Stack, origin = stack.gatewayUrl) {
    this.stack = stack;
    this.origin = origin;
  }

  private remember(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      if (pair!.startsWith('bnpl_dashboard_session=')) this.cookie = pair!.endsWith('=') ? '' : pair!;
    }
  }

  async get(path: string): Promise<{ status: number; html: string; res: Response }> {
    const res = await fetch(this.stack.gatewayUrl + path, { redirect: 'manual', headers: this.cookie ? { cookie: this.cookie } : {} });
    this.remember(res);
    const html = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html);
    if (token) this.csrf = token[1]!;
    return { status: res.status, html, res };
  }

  /** A form POST; `_csrf` is this client's token unless the fields say otherwise (null: none). */
  async post(
    path: string,
    fields: Record<string, string | null>,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; html: string; res: Response }> {
    const body = new URLSearchParams();
    const withToken = '_csrf' in fields ? fields : { ...fields, _csrf: this.csrf };
    for (const [k, v] of Object.entries(withToken)) if (v !== null) body.set(k, v);
    const res = await fetch(this.stack.gatewayUrl + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin, ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
      body,
    });
    this.remember(res);
    return { status: res.status, html: await res.text(), res };
  }

  /** Signs up a new merchant; its first secret key as the sign-up page shows it once, and its merchant id. */
  async signUp(business = 'Dashboard shop', email = newDashboardEmail()): Promise<{ secretKey: string; merchantId: string; email: string }> {
    const r = await this.post('/dashboard/signup', { email, password: DASHBOARD_PASSWORD, business_name: business, _csrf: null });
    if (r.status !== 200) throw new Error(`sign up: ${r.status} ${r.html.slice(0, 300)}`);
    const overview = await this.get('/dashboard');
    return { secretKey: textOf(r.html, 'secret-key')!, merchantId: textOf(overview.html, 'merchant-id')!, email };
  }
}

/** The hidden fields of the form with this id (its idempotency key and CSRF token) and the values it shows. */
export function formFields(html: string, formId: string): Record<string, string> {
  const form = new RegExp(`<form[^>]*id="${formId}"[\\s\\S]*?</form>`).exec(html)?.[0];
  if (!form) throw new Error(`no form #${formId} on the page`);
  const fields: Record<string, string> = {};
  for (const [tag] of form.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    if (name) fields[name] = (/value="([^"]*)"/.exec(tag)?.[1] ?? '').replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)));
  }
  return fields;
}
