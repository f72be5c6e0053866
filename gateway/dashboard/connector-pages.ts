// The Connectors page: the merchant's connector accounts, and adding one. The connector is chosen from the manifests
// (workers/connectors/manifests.ts), which also say which credentials it takes; the account is validated with the
// API's CreateConnectorAccountRequest and made by the API's own createConnectorAccount. Form fields are named by the
// API's paths (connector_account_details.api_key, ...), so an error is shown beside the field it names.
import { Router, type Response } from 'express';
import { z } from 'zod';
import type { ConnectorName } from '../../lib/schemas/common.ts';
import { CreateConnectorAccountRequest } from '../../lib/schemas/merchant.ts';
import { IMPLEMENTED, MANIFESTS } from '../../workers/connectors/manifests.ts';
import { connectorAccountView, createConnectorAccount, generatesSecret } from '../routes/connector-accounts.ts';
import { ROUTING } from '../scope.ts';
import type { DashboardContext } from './context.ts';
import { apiFieldError, type FieldErrors, field, fieldErrors, formText } from './forms.ts';
import { html, type SafeHtml } from './html.ts';
import { DASHBOARD_PATH, csrfField, dashboardPage } from './layout.ts';
import { sessionOf, verifyCsrf } from './session.ts';

export const CONNECTORS_PATH = `${DASHBOARD_PATH}/connectors`;

const DETAIL_KEYS = ['api_key', 'key1', 'api_secret', 'key2'] as const;
type DetailKey = (typeof DETAIL_KEYS)[number];
/** What each auth_type holds, for a manifest whose credentials are not a plain object schema. */
const BY_AUTH_TYPE: Record<string, DetailKey[]> = {
  HeaderKey: ['api_key'],
  BodyKey: ['api_key', 'key1'],
  SignatureKey: ['api_key', 'key1', 'api_secret'],
  MultiAuthKey: ['api_key', 'key1', 'api_secret', 'key2'],
};

const isDetailKey = (k: string): k is DetailKey => (DETAIL_KEYS as readonly string[]).includes(k);

/** The credential fields the connector takes (from its manifest's schema), each required or optional. */
export function authFields(connector: ConnectorName): { name: DetailKey; optional: boolean }[] {
  const m = MANIFESTS[connector];
  if (!m) return [];
  const c = m.credentials;
  if (c instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = c.shape;
    return Object.keys(shape)
      .filter(isDetailKey)
      .map((name) => ({ name, optional: shape[name]!.safeParse(undefined).success }));
  }
  return (BY_AUTH_TYPE[m.auth_type] ?? ['api_key']).map((name) => ({ name, optional: false }));
}

const ChosenConnector = z.enum(IMPLEMENTED as [ConnectorName, ...ConnectorName[]], { error: 'Choose one of the connectors listed' });
const displayName = (c: ConnectorName) => MANIFESTS[c]?.display_name ?? c;
/** A connector whose provider issues the notification secret (the merchant copies it from the provider). */
const takesProviderSecret = (c: ConnectorName) => !!MANIFESTS[c]?.webhook && !generatesSecret(c);

export function connectorPages(ctx: DashboardContext): Router {
  const r = Router(ROUTING);

  const page = async (
    res: Response,
    o: { chosen?: ConnectorName; values?: Record<string, string>; errors?: FieldErrors; shown?: SafeHtml; status?: number } = {},
  ) => {
    const s = sessionOf(res);
    const accounts = (await ctx.setup.connectorAccountsOf(s.merchantId)).map((a) => connectorAccountView(a));
    const rows = accounts.map(
      (a) => html`<tr id="mca-${a.merchant_connector_id}"><td>${a.connector_label}</td><td>${displayName(a.connector_name)}</td>
<td class="mono">${a.merchant_connector_id}</td><td class="mono">${Object.entries(a.connector_account_details)
        .filter(([k]) => k !== 'auth_type')
        .map(([k, v]) => html`${k}: ${v}<br>`)}</td>
<td>${a.test_mode ? html`<span class="badge">test</span>` : html`<span class="badge good">live</span>`}</td>
<td>${a.disabled ? html`<span class="badge bad">disabled</span>` : html`<span class="badge good">enabled</span>`}</td><td>${a.created_at}</td></tr>`,
    );
    const e = o.errors ?? {};
    const v = o.values ?? {};
    const chooser = html`<form method="get" action="${CONNECTORS_PATH}">
<label for="f-connector">Connector</label>
<select id="f-connector" name="connector">${IMPLEMENTED.map(
      (c) => html`<option value="${c}"${c === o.chosen ? html` selected` : ''}>${displayName(c)}</option>`,
    )}</select>
${e.connector_name ? html`<p class="field-error" id="f-connector-error">${e.connector_name}</p>` : ''}
<div class="actions"><button type="submit" class="secondary">Choose</button></div></form>`;
    const details = o.chosen
      ? html`<form method="post" action="${CONNECTORS_PATH}" novalidate>${csrfField(s)}
<input type="hidden" name="connector_name" value="${o.chosen}">
<h2>${displayName(o.chosen)} (${MANIFESTS[o.chosen]?.auth_type ?? ''})</h2>
${authFields(o.chosen).map((f) =>
  field({
    label: `${f.name}${f.optional ? ' (optional)' : ''}`,
    name: `connector_account_details.${f.name}`,
    type: 'password',
    autocomplete: 'off',
    value: v[`connector_account_details.${f.name}`],
    error: e[`connector_account_details.${f.name}`],
    required: !f.optional,
  }),
)}
${
  takesProviderSecret(o.chosen)
    ? field({
        label: 'Notification secret (optional, issued by the provider)',
        name: 'connector_webhook_details.merchant_secret',
        type: 'password',
        autocomplete: 'off',
        error: e['connector_webhook_details.merchant_secret'],
      })
    : ''
}
${field({ label: 'Label (optional)', name: 'connector_label', value: v.connector_label, error: e.connector_label })}
<label><input type="checkbox" name="test_mode" value="true"${v.test_mode === 'false' ? '' : html` checked`}> Test mode</label>
${e._form ? html`<p class="field-error">${e._form}</p>` : ''}
<div class="actions"><button type="submit">Add connector account</button></div></form>`
      : html``;
    res
      .status(o.status ?? 200)
      .type('html')
      .send(
        dashboardPage({
          title: 'Connectors',
          session: s,
          active: 'connectors',
          body: html`<h1>Connector accounts</h1>
${o.shown ?? ''}
${
  accounts.length
    ? html`<table><thead><tr><th>Label</th><th>Connector</th><th>Id</th><th>Credentials</th><th>Mode</th><th>Status</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="muted">No connector account yet: payments go to the sandbox's default account.</p>`
}
<div class="card"><h2>Add a connector account</h2>${chooser}${details}</div>`,
        }),
      );
  };

  r.get(CONNECTORS_PATH, ctx.signedIn, async (req, res) => {
    const asked = formText(req.query, 'connector');
    const chosen = asked === undefined ? undefined : ChosenConnector.safeParse(asked);
    if (chosen && !chosen.success) return page(res, { errors: { connector_name: 'Choose one of the connectors listed' }, status: 400 });
    await page(res, { chosen: chosen?.data });
  });

  r.post(CONNECTORS_PATH, ctx.signedIn, verifyCsrf, async (req, res) => {
    const s = sessionOf(res);
    const connector = ChosenConnector.safeParse(formText(req.body, 'connector_name'));
    if (!connector.success) return page(res, { errors: { connector_name: 'Choose one of the connectors listed' }, status: 400 });
    const chosen = connector.data;
    const values: Record<string, string> = {};
    for (const name of ['connector_label', ...authFields(chosen).map((f) => `connector_account_details.${f.name}`)]) {
      const t = formText(req.body, name);
      if (t !== undefined) values[name] = t;
    }
    values.test_mode = formText(req.body, 'test_mode') === 'true' ? 'true' : 'false';
    const detail = (k: DetailKey) => values[`connector_account_details.${k}`];
    const secret = formText(req.body, 'connector_webhook_details.merchant_secret');
    const request = CreateConnectorAccountRequest.safeParse({
      connector_name: chosen,
      connector_label: values.connector_label || undefined,
      connector_account_details: {
        auth_type: MANIFESTS[chosen]?.auth_type,
        // An optional field left empty is not sent; a required one is, so the schema names it.
        ...Object.fromEntries(authFields(chosen).flatMap((f) => (detail(f.name) || !f.optional ? [[f.name, detail(f.name) ?? '']] : []))),
      },
      ...(secret ? { connector_webhook_details: { merchant_secret: secret } } : {}),
      test_mode: values.test_mode === 'true',
    });
    // Credentials are never echoed back into the form.
    const shownValues = { connector_label: values.connector_label ?? '', test_mode: values.test_mode };
    if (!request.success) return page(res, { chosen, values: shownValues, errors: fieldErrors(request.error), status: 400 });
    let made: Awaited<ReturnType<typeof createConnectorAccount>>;
    try {
      made = await createConnectorAccount(ctx.setup, s.merchantId, request.data, ctx.changed);
    } catch (err) {
      const errors = apiFieldError(err);
      if (!errors) throw err;
      return page(res, { chosen, values: shownValues, errors, status: 400 });
    }
    const a = made.account;
    await page(res, {
      shown: html`<div class="alert ok" role="status">Connector account <span class="mono">${a.merchant_connector_id}</span> (${a.connector_label}) added.</div>
${
  made.generatedSecret
    ? html`<div class="card"><h2>Notification secret</h2><p><strong>Shown only this once.</strong> It verifies ${displayName(a.connector_name)}'s notifications to this account.</p>
<code class="secret" id="new-notification-secret">${made.generatedSecret}</code></div>`
    : ''
}`,
    });
  });
  return r;
}
