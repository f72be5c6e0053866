// The Webhooks page: each business profile's webhook URL (where the API keeps it: the profile's
// webhook_details.webhook_url, which the webhook worker reads), set through the API's own updateProfile (its schema and
// SSRF guard, lib/webhook-url.ts), and the profile's signing secret (payment_response_hash_key), shown on request.
import { Router, type Response } from 'express';
import { found } from '../../lib/errors.ts';
import { UpdateProfileRequest } from '../../lib/schemas/merchant.ts';
import { profileView, updateProfile } from '../routes/profiles.ts';
import { ROUTING } from '../scope.ts';
import type { DashboardContext } from './context.ts';
import { apiFieldError, type FieldErrors, field, fieldErrors, formText } from './forms.ts';
import { html, type SafeHtml } from './html.ts';
import { DASHBOARD_PATH, csrfField, dashboardPage } from './layout.ts';
import { sessionOf, verifyCsrf } from './session.ts';

export const WEBHOOKS_PATH = `${DASHBOARD_PATH}/webhooks`;
const URL_FIELD = 'webhook_details.webhook_url';

export function webhookPages(ctx: DashboardContext): Router {
  const r = Router(ROUTING);

  /** `forProfile`: the profile the message, errors or revealed secret are about. */
  const page = async (
    res: Response,
    o: { forProfile?: string; errors?: FieldErrors; value?: string; shown?: SafeHtml; secret?: boolean; status?: number } = {},
  ) => {
    const s = sessionOf(res);
    const profiles = await ctx.setup.profilesOf(s.merchantId);
    const cards = profiles.map((p) => {
      const mine = p.profile_id === o.forProfile;
      const e = mine ? (o.errors ?? {}) : {};
      const key = mine && o.secret ? profileView(p).payment_response_hash_key : undefined;
      return html`<div class="card" id="profile-${p.profile_id}"><h2>Profile “${p.profile_name}” <span class="muted mono">${p.profile_id}</span></h2>
${mine ? (o.shown ?? '') : ''}
<form method="post" action="${WEBHOOKS_PATH}/${p.profile_id}" novalidate>${csrfField(s)}
${field({
  label: 'Webhook URL',
  name: URL_FIELD,
  type: 'url',
  value: mine && o.value !== undefined ? o.value : (p.webhook_details?.webhook_url ?? ''),
  error: e[URL_FIELD] ?? e.webhook_details ?? e._form,
  hint: 'Events of this profile are POSTed here (empty: none are sent).',
})}
<div class="actions"><button type="submit">Save webhook URL</button></div></form>
<h2>Signing secret</h2>
<p>Deliveries carry Standard Webhooks headers (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>):
an HMAC-SHA256 keyed with this profile's <code>payment_response_hash_key</code> (as a Standard Webhooks secret: <code>whsec_</code> + base64 of its UTF-8 bytes).
The README's “Merchant webhooks” section shows how to verify one.</p>
${
  key
    ? html`<p>payment_response_hash_key:</p><code class="secret" id="signing-secret">${key}</code>
<p>As a Standard Webhooks secret:</p><code class="secret" id="signing-secret-whsec">whsec_${Buffer.from(key, 'utf8').toString('base64')}</code>`
    : html`<form method="post" action="${WEBHOOKS_PATH}/${p.profile_id}/secret">${csrfField(s)}<button type="submit" class="secondary">Show signing secret</button></form>`
}</div>`;
    });
    res
      .status(o.status ?? 200)
      .type('html')
      .send(dashboardPage({ title: 'Webhooks', session: s, active: 'webhooks', body: html`<h1>Webhooks</h1>${cards}` }));
  };

  r.get(WEBHOOKS_PATH, ctx.signedIn, async (_req, res) => page(res));

  r.post(`${WEBHOOKS_PATH}/:profile_id`, ctx.signedIn, verifyCsrf, async (req, res) => {
    const s = sessionOf(res);
    const profileId = String(req.params.profile_id);
    const p = found(await ctx.setup.profile(s.merchantId, profileId), 'Business profile');
    const url = (formText(req.body, URL_FIELD) ?? '').trim();
    const body = UpdateProfileRequest.safeParse({ webhook_details: { webhook_url: url || null } });
    if (!body.success) return page(res, { forProfile: p.profile_id, errors: fieldErrors(body.error), value: url, status: 400 });
    try {
      await updateProfile(ctx.setup, s.merchantId, p.profile_id, body.data, ctx.changed);
    } catch (err) {
      const errors = apiFieldError(err);
      if (!errors) throw err;
      return page(res, { forProfile: p.profile_id, errors, value: url, status: 400 });
    }
    await page(res, {
      forProfile: p.profile_id,
      shown: html`<div class="alert ok" role="status">${url ? html`Webhook URL saved.` : html`Webhook URL removed: no events are sent.`}</div>`,
    });
  });

  // A POST (with the CSRF token), not a link: the secret is shown only on the merchant's own request from this page.
  r.post(`${WEBHOOKS_PATH}/:profile_id/secret`, ctx.signedIn, verifyCsrf, async (req, res) => {
    const p = found(await ctx.setup.profile(sessionOf(res).merchantId, String(req.params.profile_id)), 'Business profile');
    await page(res, { forProfile: p.profile_id, secret: true });
  });
  return r;
}
