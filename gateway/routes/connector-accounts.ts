// Merchant connector accounts (the admin key, or the merchant's own secret key: routes/accounts.ts): a merchant's account at a provider, with its credentials (sealed at
// rest, answered masked), its notification secret (lib/webhook-secret.ts: generated for a connector whose secret is
// ours, shown in clear only in the answer that made it), the payment methods it takes, and whether it is in use.
import type { Router } from 'express';
import type { z } from 'zod';
import { errors, found } from '../../lib/errors.ts';
import type { ConnectorName } from '../../lib/schemas/common.ts';
import { MANIFESTS } from '../../workers/connectors/manifests.ts';
import { ids } from '../../lib/ids.ts';
import { webhookDetailsOf, type ConnectorAccountDoc, type MerchantStore } from '../../lib/merchant-store.ts';
import {
  type ConnectorAccountResource,
  CreateConnectorAccountRequest,
  UpdateConnectorAccountRequest,
  type ConnectorAccountDetailsValue,
} from '../../lib/schemas/merchant.ts';
import { mask, open, seal } from '../../lib/secret-box.ts';
import { config } from '../../lib/config.ts';
import { newWebhookSecret, replacedSecret } from '../../lib/webhook-secret.ts';
import { validate } from '../validate.ts';
import { scopedRouter } from '../scope.ts';
import type { SetupChanged } from './accounts.ts';

function maskedDetails(a: ConnectorAccountDoc): Record<string, string> {
  const d = JSON.parse(open(a.connector_account_details_sealed, a.merchant_connector_id)) as ConnectorAccountDetailsValue;
  return Object.fromEntries(
    Object.entries(d)
      .filter(([, v]) => v != null)
      .map(([k, v]) => [k, k === 'auth_type' ? String(v) : mask(String(v))]),
  );
}

/** The webhook secret masked like the credentials (null when the account has none). */
function maskedWebhookDetails(a: ConnectorAccountDoc) {
  const d = webhookDetailsOf(a);
  return d ? { merchant_secret: mask(d.merchant_secret) } : null;
}

/**
 * How far the account's connector was checked against its provider's published material (the manifest's
 * verification): a preview connector's answer lists what the merchant must confirm with the provider before going
 * live (issue 21). null for a connector without a manifest.
 */
function connectorVerification(connector: ConnectorName) {
  const v = MANIFESTS[connector]?.verification;
  if (!v) return null;
  return { level: v.level, verified: v.verified, unverified: v.unverified, go_live_checklist: v.go_live_checklist ?? [] };
}

/** `generatedSecret`: a secret this very answer made, shown in clear this once (as an API key is). */
export const connectorAccountView = (a: ConnectorAccountDoc, generatedSecret?: string): ConnectorAccountResource => ({
  connector_type: a.connector_type,
  merchant_connector_id: a.merchant_connector_id,
  merchant_id: a.merchant_id,
  profile_id: a.profile_id,
  connector_name: a.connector_name,
  connector_label: a.connector_label,
  connector_account_details: maskedDetails(a),
  connector_webhook_details: generatedSecret ? { merchant_secret: generatedSecret } : maskedWebhookDetails(a),
  connector_verification: connectorVerification(a.connector_name),
  payment_methods_enabled: a.payment_methods_enabled,
  test_mode: a.test_mode,
  disabled: a.disabled,
  metadata: a.metadata,
  created_at: a.created_at,
  updated_at: a.updated_at,
});

/** Whether we make this connector's notification secrets (else the provider issues them and the merchant gives them). */
export const generatesSecret = (connector: ConnectorName) => {
  const w = MANIFESTS[connector]?.webhook;
  return w?.scheme === 'hmac' && !!w.generated_secret;
};

/** The credentials must be what the connector's manifest takes: else 400 naming the field, and nothing is stored. */
function checkCredentials(connector: ConnectorName, details: unknown): void {
  const m = MANIFESTS[connector];
  if (!m) return;
  const r = m.credentials.safeParse(details);
  if (r.success) return;
  const issue = r.error.issues[0]!;
  throw errors.invalid(['connector_account_details', ...issue.path.map(String)].join('.'), `${connector} takes ${m.auth_type} credentials: ${issue.message}`);
}

/** The account's webhook details with `secret` as its secret, the previous one kept for the grace period; sealed. */
const sealedReplacement = (a: ConnectorAccountDoc, secret: string) =>
  seal(JSON.stringify(replacedSecret(webhookDetailsOf(a), secret, config.webhookSecretGraceMs)), a.merchant_connector_id);

/**
 * A new connector account of the merchant (the admin API's create and the dashboard's Connectors page): the
 * credentials checked against the connector's manifest, then 404 HE_02 for an unknown merchant, and the profile
 * (the merchant's default unless named). `generatedSecret`: a notification secret made for it, to show this once.
 */
export async function createConnectorAccount(
  setup: MerchantStore,
  merchantId: string,
  body: z.infer<typeof CreateConnectorAccountRequest>,
  changed: SetupChanged,
): Promise<{ account: ConnectorAccountDoc; generatedSecret?: string }> {
  checkCredentials(body.connector_name, body.connector_account_details);
  const m = found(await setup.merchant(merchantId), 'Merchant account');
  const profileId = body.profile_id ?? m.default_profile;
  const profile = profileId ? await setup.profile(m.merchant_id, profileId) : null;
  if (body.profile_id && !profile) throw errors.invalid('profile_id', 'no such business profile for this merchant');
  const id = ids.connectorAccount();
  const now = new Date().toISOString();
  // Never a shared default: a connector whose secret is ours gets a new one unless the merchant gives its own.
  const generated = !body.connector_webhook_details && generatesSecret(body.connector_name) ? newWebhookSecret() : undefined;
  const webhookDetails = body.connector_webhook_details ?? (generated ? { merchant_secret: generated } : null);
  const a: ConnectorAccountDoc = {
    merchant_connector_id: id,
    merchant_id: m.merchant_id,
    profile_id: profile?.profile_id ?? null,
    connector_type: 'payment_processor',
    connector_name: body.connector_name,
    connector_label: body.connector_label ?? `${body.connector_name}_${profile?.profile_name ?? 'default'}`,
    connector_account_details_sealed: seal(JSON.stringify(body.connector_account_details), id),
    connector_webhook_details_sealed: webhookDetails ? seal(JSON.stringify(webhookDetails), id) : null,
    payment_methods_enabled: body.payment_methods_enabled ?? null,
    test_mode: body.test_mode ?? true,
    disabled: body.disabled ?? false,
    metadata: body.metadata ?? null,
    created_at: now,
    updated_at: now,
  };
  await setup.connectorAccounts.insertOne({ ...a });
  await changed(a.merchant_id);
  return { account: a, generatedSecret: generated };
}

export function connectorAccountsRouter(setup: MerchantStore, changed: SetupChanged): Router {
  const r = scopedRouter();
  const base = '/account/:merchant_id/connectors';

  const merchantOr404 = async (merchantId: string) => found(await setup.merchant(merchantId), 'Merchant account');
  const accountOr404 = async (merchantId: string, mcaId: string) => found(await setup.connectorAccount(merchantId, mcaId), 'Merchant connector account');

  r.post(base, async (req, res) => {
    const body = validate(CreateConnectorAccountRequest, req.body);
    const { account, generatedSecret } = await createConnectorAccount(setup, req.params.merchant_id, body, changed);
    res.json(connectorAccountView(account, generatedSecret));
  });

  r.get(base, async (req, res) => {
    await merchantOr404(req.params.merchant_id);
    res.json((await setup.connectorAccountsOf(req.params.merchant_id)).map((a) => connectorAccountView(a)));
  });

  r.get(`${base}/:merchant_connector_id`, async (req, res) =>
    res.json(connectorAccountView(await accountOr404(req.params.merchant_id, req.params.merchant_connector_id))),
  );

  r.post(`${base}/:merchant_connector_id`, async (req, res) => {
    const body = validate(UpdateConnectorAccountRequest, req.body);
    const a = await accountOr404(req.params.merchant_id, req.params.merchant_connector_id);
    if (body.connector_account_details) checkCredentials(a.connector_name, body.connector_account_details);
    const set: Partial<ConnectorAccountDoc> = { updated_at: new Date().toISOString() };
    for (const k of ['connector_label', 'payment_methods_enabled', 'test_mode', 'disabled', 'metadata'] as const) {
      if (body[k] !== undefined && body[k] !== null) (set as Record<string, unknown>)[k] = body[k];
    }
    if (body.connector_account_details) set.connector_account_details_sealed = seal(JSON.stringify(body.connector_account_details), a.merchant_connector_id);
    if (body.connector_webhook_details) set.connector_webhook_details_sealed = sealedReplacement(a, body.connector_webhook_details.merchant_secret);
    await setup.connectorAccounts.updateOne({ merchant_connector_id: a.merchant_connector_id, merchant_id: a.merchant_id }, { $set: set });
    await changed(a.merchant_id);
    res.json(connectorAccountView({ ...a, ...set }));
  });

  // A new generated notification secret, answered once; the previous one is accepted for WEBHOOK_SECRET_GRACE_MS.
  r.post(`${base}/:merchant_connector_id/webhook_secret/rotate`, async (req, res) => {
    const a = await accountOr404(req.params.merchant_id, req.params.merchant_connector_id);
    if (!generatesSecret(a.connector_name)) {
      throw errors.invalid(
        'connector_webhook_details.merchant_secret',
        `${a.connector_name} issues the notification secret: give the new one as connector_webhook_details.merchant_secret in an update`,
      );
    }
    const secret = newWebhookSecret();
    const set: Partial<ConnectorAccountDoc> = { updated_at: new Date().toISOString(), connector_webhook_details_sealed: sealedReplacement(a, secret) };
    await setup.connectorAccounts.updateOne({ merchant_connector_id: a.merchant_connector_id, merchant_id: a.merchant_id }, { $set: set });
    await changed(a.merchant_id);
    res.json(connectorAccountView({ ...a, ...set }, secret));
  });

  r.delete(`${base}/:merchant_connector_id`, async (req, res) => {
    const a = await accountOr404(req.params.merchant_id, req.params.merchant_connector_id);
    await setup.retireConnectorAccounts(a.merchant_id, a.merchant_connector_id);
    await changed(a.merchant_id);
    res.json({ merchant_id: a.merchant_id, merchant_connector_id: a.merchant_connector_id, deleted: true });
  });
  return r;
}
