// Sign up, sign in and sign out. Sign up makes the merchant account and its first secret API key through the admin
// API's own code (routes/accounts.ts), then shows the secret key once, with the publishable key.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { errors } from '../../lib/errors.ts';
import { ids } from '../../lib/ids.ts';
import { log } from '../../lib/log.ts';
import { isDuplicateKey } from '../../lib/mongo.ts';
import { createApiKey, createMerchantAccount } from '../routes/accounts.ts';
import { ROUTING } from '../scope.ts';
import type { DashboardContext } from './context.ts';
import { type FieldErrors, field, fieldErrors, formText, notice } from './forms.ts';
import { html } from './html.ts';
import { DASHBOARD_PATH, dashboardPage, publicPage } from './layout.ts';
import { dummyHash, hashPassword, verifyNobody, verifyPassword } from './password.ts';
import {
  SESSION_COOKIE,
  SIGN_IN_PATH,
  dashboardUsers,
  sameOriginForm,
  normaliseEmail,
  sessionCookieOptions,
  sessionIdOf,
  signInLimit,
  verifyCsrf,
} from './session.ts';

export const SIGN_UP_PATH = `${DASHBOARD_PATH}/signup`;
export const SIGN_OUT_PATH = `${DASHBOARD_PATH}/signout`;
export const MIN_PASSWORD_LENGTH = 12;

const email = z
  .string({ error: 'Enter your email address' })
  .transform(normaliseEmail)
  .pipe(z.email({ error: 'Enter a valid email address' }).max(254, { error: 'At most 254 characters' }));

export const SignUpForm = z.object({
  email,
  password: z
    .string({ error: 'Choose a password' })
    .min(MIN_PASSWORD_LENGTH, { error: `At least ${MIN_PASSWORD_LENGTH} characters` })
    .max(1024, { error: 'At most 1024 characters' }),
  business_name: z
    .string({ error: 'Enter your business name' })
    .trim()
    .min(1, { error: 'Enter your business name' })
    .max(255, { error: 'At most 255 characters' }),
});

const SignInForm = z.object({
  email,
  password: z.string({ error: 'Enter your password' }).min(1, { error: 'Enter your password' }).max(1024, { error: 'At most 1024 characters' }),
});

function signUpPage(o: { values?: { email?: string; business_name?: string }; errors?: FieldErrors; message?: string } = {}): string {
  const e = o.errors ?? {};
  return publicPage({
    title: 'Sign up',
    body: html`<h1>Create your merchant account</h1>
<p class="muted">You get a secret API key and a publishable key at once.</p>
${notice('error', o.message)}
<form method="post" action="${SIGN_UP_PATH}" novalidate>
${field({ label: 'Business name', name: 'business_name', value: o.values?.business_name, error: e.business_name, autocomplete: 'organization', required: true })}
${field({ label: 'Email', name: 'email', type: 'email', value: o.values?.email, error: e.email, autocomplete: 'email', required: true })}
${field({ label: 'Password', name: 'password', type: 'password', error: e.password, autocomplete: 'new-password', required: true, minlength: MIN_PASSWORD_LENGTH, hint: `At least ${MIN_PASSWORD_LENGTH} characters.` })}
<div class="actions"><button type="submit">Create account</button></div>
</form>
<p>Already have an account? <a href="${SIGN_IN_PATH}">Sign in</a></p>`,
  });
}

function signInPage(o: { email?: string; errors?: FieldErrors; message?: string } = {}): string {
  const e = o.errors ?? {};
  return publicPage({
    title: 'Sign in',
    body: html`<h1>Sign in</h1>
${notice('error', o.message)}
<form method="post" action="${SIGN_IN_PATH}" novalidate>
${field({ label: 'Email', name: 'email', type: 'email', value: o.email, error: e.email, autocomplete: 'username', required: true })}
${field({ label: 'Password', name: 'password', type: 'password', error: e.password, autocomplete: 'current-password', required: true })}
<div class="actions"><button type="submit">Sign in</button></div>
</form>
<p>New here? <a href="${SIGN_UP_PATH}">Create a merchant account</a></p>`,
  });
}

export function authPages(ctx: DashboardContext): Router {
  const r = Router(ROUTING);
  const users = dashboardUsers(ctx.db);
  void dummyHash().catch(() => undefined);

  const startSession = async (req: Request, res: Response, merchantId: string, userEmail: string) => {
    const id = await ctx.sessions.open(merchantId, userEmail);
    res.cookie(SESSION_COOKIE, id, { ...sessionCookieOptions(req), maxAge: ctx.sessions.ttl });
    return id;
  };

  r.get(SIGN_UP_PATH, (_req, res) => res.type('html').send(signUpPage()));
  // Sign up and sign in have no session yet: the Origin/Referer check (and SameSite) guards them.
  r.post(SIGN_UP_PATH, sameOriginForm, async (req, res) => {
    const values = { email: formText(req.body, 'email'), business_name: formText(req.body, 'business_name') };
    const form = SignUpForm.safeParse(req.body ?? {});
    if (!form.success)
      return res
        .status(400)
        .type('html')
        .send(signUpPage({ values, errors: fieldErrors(form.error) }));
    const { email: userEmail, password, business_name } = form.data;
    const merchantId = ids.merchant();
    // The unique email index decides, before any account is made: of two sign-ups with one email, one gets it.
    try {
      await users.insertOne({ email: userEmail, merchant_id: merchantId, password_hash: await hashPassword(password), created_at: new Date().toISOString() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return res
        .status(409)
        .type('html')
        .send(signUpPage({ values, errors: { email: 'An account with this email already exists: sign in instead' } }));
    }
    let created: Awaited<ReturnType<typeof createApiKey>>;
    let publishableKey: string;
    try {
      const merchant = await createMerchantAccount(ctx.setup, { merchant_id: merchantId, merchant_name: business_name }, ctx.changed);
      publishableKey = merchant.publishable_key;
      created = await createApiKey(ctx.setup, merchantId, { name: 'dashboard', description: 'Made at sign-up', expiration: 'never' });
    } catch (err) {
      await users.deleteOne({ email: userEmail, merchant_id: merchantId });
      throw err;
    }
    log.info('dashboard: merchant signed up', { merchant_id: merchantId });
    const id = await startSession(req, res, merchantId, userEmail);
    const session = await ctx.sessions.get(id);
    if (!session) throw errors.unavailable('The session could not be started; sign in');
    res.type('html').send(
      dashboardPage({
        title: 'Your keys',
        session,
        active: 'keys',
        body: html`<h1>Welcome, ${business_name}</h1>
<div class="card"><h2>Secret API key</h2>
<p><strong>Copy it now: it is shown only this once.</strong> Send it in the <code>api-key</code> header from your server; never put it in a page or an app.</p>
<code class="secret" id="secret-key">${created.apiKey}</code>
<h2>Publishable key</h2>
<p>For your checkout page (client-side calls on one payment, with its <code>client_secret</code>).</p>
<code class="secret" id="publishable-key">${publishableKey}</code>
<dl class="facts"><dt>Merchant id</dt><dd class="mono">${merchantId}</dd></dl>
<div class="actions"><a href="${DASHBOARD_PATH}">Go to the overview</a></div></div>`,
      }),
    );
  });

  r.get(SIGN_IN_PATH, (_req, res) => res.type('html').send(signInPage()));
  r.post(SIGN_IN_PATH, sameOriginForm, signInLimit(ctx.deps.redis), async (req, res) => {
    const form = SignInForm.safeParse(req.body ?? {});
    if (!form.success)
      return res
        .status(400)
        .type('html')
        .send(signInPage({ email: formText(req.body, 'email'), errors: fieldErrors(form.error) }));
    const user = await users.findOne({ email: form.data.email });
    const ok = user ? await verifyPassword(form.data.password, user.password_hash) : await verifyNobody(form.data.password);
    if (!user || !ok) {
      log.warn('dashboard: sign-in refused', { address: req.ip });
      return res
        .status(401)
        .type('html')
        .send(signInPage({ email: form.data.email, message: 'Wrong email or password.' }));
    }
    await startSession(req, res, user.merchant_id, user.email);
    res.redirect(303, DASHBOARD_PATH);
  });

  r.post(SIGN_OUT_PATH, ctx.signedIn, verifyCsrf, async (req, res) => {
    await ctx.sessions.close(sessionIdOf(req));
    res.clearCookie(SESSION_COOKIE, sessionCookieOptions(req));
    res.redirect(303, SIGN_IN_PATH);
  });
  return r;
}
