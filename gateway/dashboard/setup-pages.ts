// The merchant's setup in the dashboard: the overview, API keys, connector accounts and the webhook URL. Every change
// goes through the admin API's own code (routes/accounts.ts, connector-accounts.ts, profiles.ts) and ends with
// ctx.changed, as the API's routes do.
import { Router, type Response } from 'express';
import { z } from 'zod';
import { found } from '../../lib/errors.ts';
import type { ApiKeyDoc } from '../../lib/merchant-store.ts';
import { CreateApiKeyRequest } from '../../lib/schemas/merchant.ts';
import { createApiKey, revokeApiKey } from '../routes/accounts.ts';
import { ROUTING } from '../scope.ts';
import type { DashboardContext } from './context.ts';
import { type FieldErrors, field, fieldErrors, notice } from './forms.ts';
import { html, type SafeHtml } from './html.ts';
import { DASHBOARD_PATH, csrfField, dashboardPage } from './layout.ts';
import { sessionOf, verifyCsrf } from './session.ts';

const KEYS_PATH = `${DASHBOARD_PATH}/keys`;

/** The key's lifetime as the form offers it: never, or a number of days from now. */
const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never expires' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
] as const;
const ExpiryChoice = z.enum(['never', '30', '90', '365'], { error: 'Choose when the key expires' });
const expirationOf = (choice: z.infer<typeof ExpiryChoice>) =>
  choice === 'never' ? 'never' : new Date(Date.now() + Number(choice) * 86_400_000).toISOString();

const keyStatus = (k: ApiKeyDoc): SafeHtml =>
  k.revoked
    ? html`<span class="badge bad">revoked</span>`
    : k.expiration && Date.parse(k.expiration) <= Date.now()
      ? html`<span class="badge bad">expired</span>`
      : html`<span class="badge good">active</span>`;

/** The secret key just made, shown this once. */
const newKeyNotice = (apiKey: string, what: string): SafeHtml => html`<div class="card" role="status"><h2>${what}</h2>
<p><strong>Copy it now: it is shown only this once.</strong></p><code class="secret" id="new-secret-key">${apiKey}</code></div>`;

export function setupPages(ctx: DashboardContext): Router {
  const r = Router(ROUTING);
  const { db, setup } = ctx;

  r.get(DASHBOARD_PATH, ctx.signedIn, async (_req, res) => {
    const session = res.locals.dashboard!;
    const m = found(await setup.merchant(session.merchantId), 'Merchant account');
    const byMerchant = { merchant_id: m.merchant_id };
    const [payments, refunds, disputes, connectors, keys] = await Promise.all([
      db.collection('payments').countDocuments(byMerchant),
      db.collection('refunds').countDocuments(byMerchant),
      db.collection('disputes').countDocuments(byMerchant),
      setup.connectorAccounts.countDocuments(byMerchant),
      setup.apiKeys.countDocuments({ ...byMerchant, revoked: false }),
    ]);
    const stat = (label: string, n: number, href: string) => html`<div class="card"><div class="n">${n}</div><a href="${href}">${label}</a></div>`;
    res.type('html').send(
      dashboardPage({
        title: 'Overview',
        session,
        active: 'overview',
        body: html`<h1>${m.merchant_name ?? m.merchant_id}</h1>
<div class="stats">${[
          stat('Payments', payments, `${DASHBOARD_PATH}/payments`),
          stat('Refunds', refunds, `${DASHBOARD_PATH}/refunds`),
          stat('Disputes', disputes, `${DASHBOARD_PATH}/disputes`),
          stat('Connector accounts', connectors, `${DASHBOARD_PATH}/connectors`),
          stat('Active API keys', keys, `${DASHBOARD_PATH}/keys`),
        ]}</div>
<div class="card"><dl class="facts">
<dt>Merchant id</dt><dd class="mono" id="merchant-id">${m.merchant_id}</dd>
<dt>Business name</dt><dd>${m.merchant_name ?? '—'}</dd>
<dt>Publishable key</dt><dd class="mono" id="publishable-key">${m.publishable_key}</dd>
<dt>Signed in as</dt><dd>${session.email}</dd>
<dt>Created</dt><dd>${m.created}</dd>
</dl></div>`,
      }),
    );
  });

  const keysPage = async (res: Response, o: { shown?: SafeHtml; errors?: FieldErrors; name?: string; status?: number } = {}) => {
    const s = sessionOf(res);
    const keys = await setup.apiKeys
      .find({ merchant_id: s.merchantId }, { projection: { _id: 0 } })
      .sort({ created: -1 })
      .toArray();
    const rows = keys.map(
      (
        k,
      ) => html`<tr id="key-${k.key_id}"><td>${k.name}</td><td class="mono">${k.prefix}…</td><td>${k.created}</td><td>${k.expiration ?? 'never'}</td><td>${keyStatus(k)}</td>
<td>${
        k.revoked
          ? ''
          : html`<form class="inline" method="post" action="${KEYS_PATH}/${k.key_id}/rotate">${csrfField(s)}<button type="submit" class="secondary">Rotate</button></form>
<form class="inline" method="post" action="${KEYS_PATH}/${k.key_id}/revoke">${csrfField(s)}<button type="submit" class="danger">Revoke</button></form>`
      }</td></tr>`,
    );
    const e = o.errors ?? {};
    res
      .status(o.status ?? 200)
      .type('html')
      .send(
        dashboardPage({
          title: 'API keys',
          session: s,
          active: 'keys',
          body: html`<h1>API keys</h1>
${o.shown ?? ''}
<p class="muted">Secret keys go in the <code>api-key</code> header of your server's calls. Rotating makes a new key and revokes the old one at once.</p>
<table><thead><tr><th>Name</th><th>Prefix</th><th>Created</th><th>Expires</th><th>Status</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<div class="card"><h2>Create a secret key</h2>
<form method="post" action="${KEYS_PATH}" novalidate>${csrfField(s)}
${field({ label: 'Name', name: 'name', value: o.name, error: e.name, required: true })}
<label for="f-expiration">Expires</label>
<select id="f-expiration" name="expiration">${EXPIRY_CHOICES.map((c) => html`<option value="${c.value}">${c.label}</option>`)}</select>
${e.expiration ? html`<p class="field-error" id="f-expiration-error">${e.expiration}</p>` : ''}
<div class="actions"><button type="submit">Create key</button></div></form></div>`,
        }),
      );
  };

  r.get(KEYS_PATH, ctx.signedIn, async (_req, res) => keysPage(res));

  r.post(KEYS_PATH, ctx.signedIn, verifyCsrf, async (req, res) => {
    const s = sessionOf(res);
    const form = z.object({ name: z.string().trim(), expiration: ExpiryChoice }).safeParse({ expiration: 'never', ...req.body });
    // The API's own schema decides what a key may be.
    const body = form.success ? CreateApiKeyRequest.safeParse({ name: form.data.name, expiration: expirationOf(form.data.expiration) }) : form;
    if (!body.success) return keysPage(res, { errors: fieldErrors(body.error), name: typeof req.body?.name === 'string' ? req.body.name : '', status: 400 });
    const { apiKey } = await createApiKey(setup, s.merchantId, body.data);
    await keysPage(res, { shown: newKeyNotice(apiKey, `New secret key “${body.data.name}”`) });
  });

  const ownKey = async (res: Response, keyId: string) => found(await setup.apiKey(sessionOf(res).merchantId, keyId), 'API key');

  // A new key with the old one's name and description (and its expiry, if still ahead), then the old one revoked.
  r.post(`${KEYS_PATH}/:key_id/rotate`, ctx.signedIn, verifyCsrf, async (req, res) => {
    const old = await ownKey(res, String(req.params.key_id));
    if (old.revoked) return keysPage(res, { status: 400, shown: notice('error', 'That key is revoked already; create a new one instead.') });
    const expiration = old.expiration && Date.parse(old.expiration) > Date.now() ? old.expiration : 'never';
    const { apiKey } = await createApiKey(setup, old.merchant_id, { name: old.name, description: old.description, expiration });
    await revokeApiKey(setup, old, ctx.changed);
    await keysPage(res, { shown: newKeyNotice(apiKey, `“${old.name}” rotated: its new secret key (the old one is revoked)`) });
  });

  r.post(`${KEYS_PATH}/:key_id/revoke`, ctx.signedIn, verifyCsrf, async (req, res) => {
    const k = await ownKey(res, String(req.params.key_id));
    await revokeApiKey(setup, k, ctx.changed);
    await keysPage(res, { shown: notice('ok', `Key “${k.name}” (${k.prefix}…) is revoked.`) });
  });
  return r;
}
