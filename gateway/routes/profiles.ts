// Business profiles (admin key): a merchant's lines of business, each with its return URL, webhook URL, the hash
// key that signs its webhooks, and the default routing of its payments.
import type { Router } from 'express';
import { capabilities } from '../../domain/connectors.ts';
import { errors, found } from '../../lib/errors.ts';
import { ids } from '../../lib/ids.ts';
import { isDuplicateKey } from '../../lib/mongo.ts';
import type { MerchantStore, ProfileDoc } from '../../lib/merchant-store.ts';
import { type BusinessProfileResource, CreateProfileRequest, UpdateProfileRequest, type RoutingAlgorithm } from '../../lib/schemas/merchant.ts';
import { open, seal } from '../../lib/secret-box.ts';
import { validate } from '../validate.ts';
import { scopedRouter } from '../scope.ts';
import type { SetupChanged } from './accounts.ts';
import type { z } from 'zod';
import { config } from '../../lib/config.ts';
import { webhookUrlProblem } from '../../lib/webhook-url.ts';

/** The SSRF guard on the URL's text (the webhook worker checks the addresses it resolves to at every delivery). */
function checkWebhookUrl(body: ProfileFields): void {
  const url = body.webhook_details?.webhook_url;
  if (!url) return;
  const problem = webhookUrlProblem(url, config.webhookAllowPrivateUrls);
  if (problem) throw errors.invalid('webhook_details.webhook_url', problem);
}

export type ProfileFields = z.infer<typeof UpdateProfileRequest>;

export function newProfile(merchantId: string, body: ProfileFields): ProfileDoc {
  const now = new Date().toISOString();
  const profileId = ids.profile();
  return {
    profile_id: profileId,
    merchant_id: merchantId,
    profile_name: body.profile_name ?? 'default',
    return_url: body.return_url ?? null,
    webhook_details: body.webhook_details ?? null,
    payment_response_hash_key_sealed: seal(body.payment_response_hash_key ?? ids.hashKey(), profileId),
    routing_algorithm: body.routing_algorithm ?? null,
    metadata: body.metadata ?? null,
    created_at: now,
    updated_at: now,
  };
}

export const profileView = (p: ProfileDoc): BusinessProfileResource => ({
  profile_id: p.profile_id,
  merchant_id: p.merchant_id,
  profile_name: p.profile_name,
  return_url: p.return_url,
  webhook_details: p.webhook_details,
  payment_response_hash_key: open(p.payment_response_hash_key_sealed, p.profile_id),
  routing_algorithm: p.routing_algorithm,
  metadata: p.metadata,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

/**
 * A routing must be able to serve: each choice names an enabled connector; a named account is the merchant's, of that
 * connector, not disabled, and in the profile the routing is for (payments of a profile go to its accounts only); a
 * connector named without an account has an enabled account in the profile (or the merchant has none at all, and the
 * sandbox's default account serves it).
 */
export async function checkRouting(setup: MerchantStore, merchantId: string, routing: RoutingAlgorithm | null | undefined, param: string, profileId: string) {
  if (!routing) return;
  const choices = routing.type === 'single' ? [routing.data] : routing.type === 'priority' ? routing.data : routing.data.map((d) => d.connector);
  const accounts = await setup.connectorAccountsOf(merchantId);
  for (const c of choices) {
    const name = typeof c === 'string' ? c : c.connector;
    const id = typeof c === 'string' ? null : (c.merchant_connector_id ?? null);
    if (!capabilities(name).implemented) throw errors.invalid(param, `${name} is not enabled on this service`);
    if (id) {
      const a = accounts.find((x) => x.merchant_connector_id === id);
      if (!a) throw errors.invalid(param, `connector account ${id} does not exist for this merchant`);
      if (a.connector_name !== name) throw errors.invalid(param, `connector account ${id} is a ${a.connector_name} account, not ${name}`);
      if (a.disabled) throw errors.invalid(param, `connector account ${id} is disabled`);
      if (a.profile_id !== profileId) throw errors.invalid(param, `connector account ${id} belongs to business profile ${a.profile_id}, not ${profileId}`);
    } else if (accounts.length && !accounts.some((x) => x.connector_name === name && !x.disabled && x.profile_id === profileId)) {
      throw errors.invalid(param, `business profile ${profileId} has no enabled ${name} connector account`);
    }
  }
}

const nameTaken = () => errors.duplicate('A business profile with this profile_name already exists for the merchant', 'profile_name');

/**
 * Changes a business profile (the admin API's update and the dashboard's webhook page): the webhook URL's SSRF guard
 * and the routing's checks first; 404 HE_02 for a profile that is not the merchant's. Answers the profile as changed.
 */
export async function updateProfile(
  setup: MerchantStore,
  merchantId: string,
  profileId: string,
  body: ProfileFields,
  changed: SetupChanged,
): Promise<ProfileDoc> {
  checkWebhookUrl(body);
  const p = found(await setup.profile(merchantId, profileId), 'Business profile');
  await checkRouting(setup, p.merchant_id, body.routing_algorithm, 'routing_algorithm', p.profile_id);
  const set: Partial<ProfileDoc> = { updated_at: new Date().toISOString() };
  for (const k of ['profile_name', 'return_url', 'webhook_details', 'routing_algorithm', 'metadata'] as const) {
    if (body[k] !== undefined) (set as Record<string, unknown>)[k] = body[k];
  }
  if (body.payment_response_hash_key) set.payment_response_hash_key_sealed = seal(body.payment_response_hash_key, p.profile_id);
  try {
    await setup.profiles.updateOne({ profile_id: p.profile_id, merchant_id: p.merchant_id }, { $set: set });
  } catch (err) {
    if (isDuplicateKey(err)) throw nameTaken();
    throw err;
  }
  await changed(p.merchant_id);
  return { ...p, ...set };
}

export function profilesRouter(setup: MerchantStore, changed: SetupChanged): Router {
  const r = scopedRouter();
  const base = '/account/:merchant_id/business_profile';

  const merchantOr404 = async (merchantId: string) => found(await setup.merchant(merchantId), 'Merchant account');
  const profileOr404 = async (merchantId: string, profileId: string) => found(await setup.profile(merchantId, profileId), 'Business profile');

  r.post(base, async (req, res) => {
    const body = validate(CreateProfileRequest, req.body);
    checkWebhookUrl(body);
    await merchantOr404(req.params.merchant_id);
    const p = newProfile(req.params.merchant_id, { ...body, profile_name: body.profile_name ?? `profile_${ids.profile().slice(4, 12)}` });
    await checkRouting(setup, req.params.merchant_id, body.routing_algorithm, 'routing_algorithm', p.profile_id);
    try {
      await setup.profiles.insertOne({ ...p });
    } catch (err) {
      if (isDuplicateKey(err)) throw nameTaken();
      throw err;
    }
    await changed(p.merchant_id);
    res.json(profileView(p));
  });

  r.get(base, async (req, res) => {
    await merchantOr404(req.params.merchant_id);
    res.json((await setup.profilesOf(req.params.merchant_id)).map(profileView));
  });

  r.get(`${base}/:profile_id`, async (req, res) => res.json(profileView(await profileOr404(req.params.merchant_id, req.params.profile_id))));

  r.post(`${base}/:profile_id`, async (req, res) => {
    const body = validate(UpdateProfileRequest, req.body);
    res.json(profileView(await updateProfile(setup, req.params.merchant_id, req.params.profile_id, body, changed)));
  });
  return r;
}
