// The merchant dashboard's core (issue 23) over real HTTP: sign up (the merchant account and its first secret key,
// made by the admin API's code), the session cookie, CSRF protection, sign-in, API keys, connector accounts and the
// webhook URL, each read back through the API; one merchant never sees another's data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.ts';
import { DASHBOARD_PASSWORD, DashboardClient, textOf } from './support/dashboard.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await Stack.start({
    // X-Forwarded-Proto from the test (loopback) is believed: a sign-in over https gets a Secure cookie.
    TRUST_PROXY: 'loopback',
    DASHBOARD_SIGNIN_ATTEMPTS: '5',
  });
}, 120_000);
afterAll(async () => stack?.stop());

/** A browser of one merchant: its cookie, and the CSRF token of the last page it read. */
const Browser = class extends DashboardClient {
  constructor(origin?: string) {
    super(stack, origin);
  }
};

const text = textOf;
let n = 0;
const newEmail = () => `Shop.${Date.now()}.${n++}@Example.COM`;
const PASSWORD = DASHBOARD_PASSWORD;

async function signUp(b = new Browser(), email = newEmail(), business = 'Dashboard shop') {
  const r = await b.post('/dashboard/signup', { email, password: PASSWORD, business_name: business, _csrf: null });
  expect(r.status, r.html.slice(0, 500)).toBe(200);
  await b.get('/dashboard');
  return { b, email, secretKey: text(r.html, 'secret-key')!, publishableKey: text(r.html, 'publishable-key')!, html: r.html, res: r.res };
}

const merchantOf = async (key: string) => {
  const r = await stack.api('GET', '/payments/list?limit=1', undefined, key);
  return r.status;
};

describe('sign up', () => {
  it('makes the merchant account and a secret key shown once, with the publishable key; the key works on the API', async () => {
    const { b, secretKey, publishableKey, html, res } = await signUp(undefined, undefined, 'Acme <b>GmbH</b>');
    expect(secretKey).toMatch(/^snd_/);
    expect(publishableKey).toMatch(/^pk_/);
    // Escaped, never markup.
    expect(html).toContain('Acme &#60;b&#62;GmbH&#60;/b&#62;');
    expect(html).not.toContain('<b>GmbH');
    expect(await merchantOf(secretKey)).toBe(200);
    const overview = await b.get('/dashboard');
    expect(overview.status).toBe(200);
    const merchantId = text(overview.html, 'merchant-id')!;
    expect(text(overview.html, 'publishable-key')).toBe(publishableKey);
    // The account is the admin API's: same merchant, name, publishable key and default profile.
    const account = await stack.api('GET', `/accounts/${merchantId}`, undefined, stack.adminKey);
    expect(account.body).toMatchObject({ merchant_id: merchantId, merchant_name: 'Acme <b>GmbH</b>', publishable_key: publishableKey });
    expect(account.body.default_profile).toMatch(/^pro_/);
    // The secret key is not shown again.
    expect(overview.html).not.toContain(secretKey);
    expect((await b.get('/dashboard/keys')).html).not.toContain(secretKey);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
  });

  it('sets an HttpOnly, SameSite=Strict session cookie on Path=/dashboard; Secure over https', async () => {
    const { res } = await signUp();
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('bnpl_dashboard_session='))!;
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Strict/i);
    expect(cookie).toMatch(/;\s*Path=\/dashboard(;|$)/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    const overHttps = await new Browser().post(
      '/dashboard/signup',
      { email: newEmail(), password: PASSWORD, business_name: 'Https shop', _csrf: null },
      { 'x-forwarded-proto': 'https' },
    );
    expect(overHttps.status).toBe(200);
    expect(overHttps.res.headers.getSetCookie().find((c) => c.startsWith('bnpl_dashboard_session='))).toMatch(/;\s*Secure/i);
  });

  it('refuses a duplicate email (in any case) with a clear message, and makes no second account', async () => {
    const { email } = await signUp();
    const db = await stack.db();
    const merchants = await db.collection('merchants').countDocuments();
    const again = await new Browser().post('/dashboard/signup', {
      email: `  ${email.toUpperCase()} `,
      password: PASSWORD,
      business_name: 'Twice',
      _csrf: null,
    });
    expect(again.status).toBe(409);
    expect(again.html).toContain('An account with this email already exists');
    expect(await db.collection('merchants').countDocuments()).toBe(merchants);
  });

  it('refuses a short password and a bad email, naming the field', async () => {
    const r = await new Browser().post('/dashboard/signup', { email: 'not-an-email', password: 'short', business_name: 'X', _csrf: null });
    expect(r.status).toBe(400);
    expect(r.html).toMatch(/id="f-email-error">Enter a valid email address/);
    expect(r.html).toMatch(/id="f-password-error">At least 12 characters/);
  });

  it('stores the password as a scrypt hash, never the password; the email normalised', async () => {
    const { email } = await signUp();
    const user = await (await stack.db()).collection('dashboard_users').findOne({ email: email.trim().toLowerCase() });
    expect(user).not.toBeNull();
    expect(user!.password_hash).not.toContain(PASSWORD);
    expect(user!.password_hash).toMatch(/^scrypt\$ln=\d+,r=\d+,p=\d+\$/);
    expect(JSON.stringify(user)).not.toContain(PASSWORD);
  });

  it('a sign-up form from another site is refused and makes nothing', async () => {
    const db = await stack.db();
    const before = await db.collection('dashboard_users').countDocuments();
    const r = await new Browser('https://evil.example').post('/dashboard/signup', {
      email: newEmail(),
      password: PASSWORD,
      business_name: 'Evil',
      _csrf: null,
    });
    expect(r.status).toBe(403);
    expect(await db.collection('dashboard_users').countDocuments()).toBe(before);
  });
});

describe('sign in and out', () => {
  it('a wrong password (or an unknown email) is refused; the right one opens a session; sign-out ends it', async () => {
    const { email } = await signUp();
    const b = new Browser();
    const wrong = await b.post('/dashboard/signin', { email, password: 'wrong password!!', _csrf: null });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('Wrong email or password');
    expect(b.cookie).toBe('');
    const unknown = await b.post('/dashboard/signin', { email: newEmail(), password: PASSWORD, _csrf: null });
    expect(unknown.status).toBe(401);
    expect((await b.get('/dashboard')).status).toBe(303);
    const ok = await b.post('/dashboard/signin', { email: email.toLowerCase(), password: PASSWORD, _csrf: null });
    expect(ok.status).toBe(303);
    expect(ok.res.headers.get('location')).toBe('/dashboard');
    expect((await b.get('/dashboard')).status).toBe(200);
    const out = await b.post('/dashboard/signout', {});
    expect(out.status).toBe(303);
    expect(out.res.headers.get('location')).toBe('/dashboard/signin');
    const cookie = b.cookie;
    expect(cookie).toBe('');
  });

  it('a session id kept after sign-out opens nothing', async () => {
    const { b } = await signUp();
    const kept = b.cookie;
    await b.post('/dashboard/signout', {});
    const r = await fetch(`${stack.gatewayUrl}/dashboard`, { redirect: 'manual', headers: { cookie: kept } });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard/signin');
  });

  it('limits sign-in attempts per email and address (429)', async () => {
    const { email } = await signUp();
    const b = new Browser();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await b.post('/dashboard/signin', { email, password: `wrong password ${i}`, _csrf: null })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Even the right password, until the window has passed.
    const r = await b.post('/dashboard/signin', { email, password: PASSWORD, _csrf: null });
    expect(r.status).toBe(429);
    expect(r.res.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('CSRF', () => {
  it('a POST without, or with a wrong, _csrf is 403 and changes nothing; from another origin too', async () => {
    const { b, secretKey } = await signUp();
    const merchantId = text((await b.get('/dashboard')).html, 'merchant-id');
    await b.get('/dashboard/keys');
    const db = await stack.db();
    const keys = async () =>
      JSON.stringify(
        await db
          .collection('api_keys')
          .find({ merchant_id: merchantId }, { projection: { _id: 0 } })
          .sort({ key_id: 1 })
          .toArray(),
      );
    const before = await keys();
    for (const fields of [
      { name: 'x', _csrf: null },
      { name: 'x', _csrf: 'A'.repeat(43) },
      { name: 'x', _csrf: '' },
    ]) {
      const r = await b.post('/dashboard/keys', fields);
      expect(r.status).toBe(403);
    }
    // The right token from another origin.
    const foreign = await b.post('/dashboard/keys', { name: 'x' }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const nullOrigin = await b.post('/dashboard/keys', { name: 'x' }, { origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    const otherSession = await signUp();
    const crossToken = await b.post('/dashboard/keys', { name: 'x', _csrf: otherSession.b.csrf });
    expect(crossToken.status).toBe(403);
    // Sign-out too.
    expect((await b.post('/dashboard/signout', { _csrf: null })).status).toBe(403);
    expect(await keys()).toBe(before);
    expect(await merchantOf(secretKey)).toBe(200);
  });
});

describe('API keys', () => {
  it('create shows the key once; rotate makes a new key and the old one gets 401; revoke ends a key', async () => {
    const { b, secretKey } = await signUp();
    const page = await b.get('/dashboard/keys');
    const keyId = /id="key-(dev_[A-Za-z0-9]+)"/.exec(page.html)![1]!;
    expect(page.html).toContain(secretKey.slice(0, 12));
    const rotated = await b.post(`/dashboard/keys/${keyId}/rotate`, {});
    expect(rotated.status).toBe(200);
    const newKey = text(rotated.html, 'new-secret-key')!;
    expect(newKey).toMatch(/^snd_/);
    expect(newKey).not.toBe(secretKey);
    expect(await merchantOf(secretKey)).toBe(401);
    expect(await merchantOf(newKey)).toBe(200);
    // The API sees the same: the old key revoked, the new one active.
    const m = text((await b.get('/dashboard')).html, 'merchant-id')!;
    const listed = await stack.api('GET', `/api_keys/${m}/list`, undefined, stack.adminKey);
    expect(listed.body.find((k: { key_id: string }) => k.key_id === keyId).revoked).toBe(true);
    expect(listed.body.filter((k: { revoked: boolean }) => !k.revoked)).toHaveLength(1);

    const created = await b.post('/dashboard/keys', { name: 'backend', expiration: '30' });
    expect(created.status).toBe(200);
    const third = text(created.html, 'new-secret-key')!;
    expect(await merchantOf(third)).toBe(200);
    const thirdId = (await stack.api('GET', `/api_keys/${m}/list`, undefined, stack.adminKey)).body.find((k: { name: string }) => k.name === 'backend');
    expect(Date.parse(thirdId.expiration)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const revoked = await b.post(`/dashboard/keys/${thirdId.key_id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(await merchantOf(third)).toBe(401);
    // A key without a name: the API's schema refuses it, named beside the field.
    const unnamed = await b.post('/dashboard/keys', { name: '', expiration: 'never' });
    expect(unnamed.status).toBe(400);
    expect(unnamed.html).toContain('id="f-name-error"');
  });
});

describe('connector accounts and the webhook URL', () => {
  it('adds a service_test connector account (test mode), read back through the API; the notification secret shown once', async () => {
    const { b, secretKey } = await signUp();
    const chooser = await b.get('/dashboard/connectors?connector=service_test');
    expect(chooser.status).toBe(200);
    expect(chooser.html).toContain('name="connector_account_details.api_key"');
    const added = await b.post('/dashboard/connectors', {
      connector_name: 'service_test',
      'connector_account_details.api_key': 'sk_sandbox_service_test',
      connector_label: 'my sandbox',
      test_mode: 'true',
    });
    expect(added.status, added.html.slice(0, 800)).toBe(200);
    const secret = text(added.html, 'new-notification-secret');
    expect(secret).toBeTruthy();
    const merchantId = text((await b.get('/dashboard')).html, 'merchant-id')!;
    // Read back with the merchant's own secret key, as the API answers it.
    const listed = await stack.api('GET', `/account/${merchantId}/connectors`, undefined, secretKey);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({
      connector_name: 'service_test',
      connector_label: 'my sandbox',
      test_mode: true,
      disabled: false,
      merchant_id: merchantId,
    });
    expect(listed.body[0].connector_account_details.auth_type).toBe('HeaderKey');
    expect(added.html).not.toContain('sk_sandbox_service_test');
    // A payment through it works (the setup cache was told: the account is used at once).
    const pay = await stack.api('POST', '/payments', { amount: 1000, currency: 'EUR', connector: ['service_test'] }, secretKey);
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
  });

  it('refuses a connector account without its credentials, naming the field, and stores nothing', async () => {
    const { b, secretKey } = await signUp();
    await b.get('/dashboard/connectors');
    const r = await b.post('/dashboard/connectors', { connector_name: 'service_test', 'connector_account_details.api_key': '', test_mode: 'true' });
    expect(r.status).toBe(400);
    expect(r.html).toMatch(/id="f-connector_account_details-api_key-error"/);
    const unknown = await b.post('/dashboard/connectors', { connector_name: 'nonesuch' });
    expect(unknown.status).toBe(400);
    expect(unknown.html).toContain('Choose one of the connectors listed');
    const merchantId = text((await b.get('/dashboard')).html, 'merchant-id')!;
    expect((await stack.api('GET', `/account/${merchantId}/connectors`, undefined, secretKey)).body).toEqual([]);
  });

  it('sets the webhook URL on the profile, read back through the API; refuses a bad URL beside the field; shows the signing secret on request', async () => {
    const { b } = await signUp();
    const page = await b.get('/dashboard/webhooks');
    const profileId = /id="profile-(pro_[A-Za-z0-9]+)"/.exec(page.html)![1]!;
    const merchantId = text((await b.get('/dashboard')).html, 'merchant-id')!;
    const saved = await b.post(`/dashboard/webhooks/${profileId}`, { 'webhook_details.webhook_url': 'https://shop.example/hooks' });
    expect(saved.status).toBe(200);
    const profile = await stack.api('GET', `/account/${merchantId}/business_profile/${profileId}`, undefined, stack.adminKey);
    expect(profile.body.webhook_details).toEqual({ webhook_url: 'https://shop.example/hooks' });
    const bad = await b.post(`/dashboard/webhooks/${profileId}`, { 'webhook_details.webhook_url': 'ftp://shop.example/hooks' });
    expect(bad.status).toBe(400);
    expect(bad.html).toMatch(/id="f-webhook_details-webhook_url-error"/);
    expect((await stack.api('GET', `/account/${merchantId}/business_profile/${profileId}`, undefined, stack.adminKey)).body.webhook_details).toEqual({
      webhook_url: 'https://shop.example/hooks',
    });
    expect(page.html).not.toContain(profile.body.payment_response_hash_key);
    const shown = await b.post(`/dashboard/webhooks/${profileId}/secret`, {});
    expect(text(shown.html, 'signing-secret')).toBe(profile.body.payment_response_hash_key);
  });
});

describe('one merchant never sees or changes another merchant’s setup', () => {
  it('pages show only the signed-in merchant; another merchant’s key, profile or account ids are 404 and unchanged', async () => {
    const a = await signUp(undefined, undefined, 'Merchant A');
    const other = await signUp(undefined, undefined, 'Merchant B');
    const bId = text((await other.b.get('/dashboard')).html, 'merchant-id')!;
    await other.b.post('/dashboard/connectors', {
      connector_name: 'service_test',
      'connector_account_details.api_key': 'sk_sandbox_service_test',
      test_mode: 'true',
    });
    await other.b.post(`/dashboard/webhooks/${/id="profile-(pro_[A-Za-z0-9]+)"/.exec((await other.b.get('/dashboard/webhooks')).html)![1]}`, {
      'webhook_details.webhook_url': 'https://merchant-b.example/hooks',
    });
    const bKeyId = /id="key-(dev_[A-Za-z0-9]+)"/.exec((await other.b.get('/dashboard/keys')).html)![1]!;
    const bProfileId = /id="profile-(pro_[A-Za-z0-9]+)"/.exec((await other.b.get('/dashboard/webhooks')).html)![1]!;
    const bMca = /id="mca-(mca_[A-Za-z0-9]+)"/.exec((await other.b.get('/dashboard/connectors')).html)![1]!;
    for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/connectors', '/dashboard/webhooks']) {
      const html = (await a.b.get(path)).html;
      for (const secret of [bId, other.publishableKey, bKeyId, bProfileId, bMca, 'merchant-b.example', 'Merchant B', other.secretKey.slice(0, 12)]) {
        expect(html, `${path} shows ${secret}`).not.toContain(secret);
      }
    }
    await a.b.get('/dashboard/keys');
    expect((await a.b.post(`/dashboard/keys/${bKeyId}/rotate`, {})).status).toBe(404);
    expect((await a.b.post(`/dashboard/keys/${bKeyId}/revoke`, {})).status).toBe(404);
    expect((await a.b.post(`/dashboard/webhooks/${bProfileId}`, { 'webhook_details.webhook_url': 'https://evil.example/' })).status).toBe(404);
    expect((await a.b.post(`/dashboard/webhooks/${bProfileId}/secret`, {})).status).toBe(404);
    expect(await merchantOf(other.secretKey)).toBe(200);
    const bProfile = await stack.api('GET', `/account/${bId}/business_profile/${bProfileId}`, undefined, stack.adminKey);
    expect(bProfile.body.webhook_details).toEqual({ webhook_url: 'https://merchant-b.example/hooks' });
  });
});
