// POST /webhooks/{merchant_id}/{merchant_connector_id}: a provider's notification (no api-key: the provider calls).
// At most PROVIDER_NOTIFICATIONS_PER_SECOND per connector account (429 with Retry-After above it: providers retry).
// The account's connector's manifest says how the provider proves it sent it (workers/connectors/kit/verify.ts); the key is the account's
// own secret (connector_webhook_details.merchant_secret, and the previous one within its grace; the default account's
// is derived per merchant: lib/webhook-secret.ts). A
// verified notification (an unsigned one is only a hint, which the worker checks with the provider) is recorded once in the inbox (lib/notification-inbox.ts) and queued for the connector's
// worker, and the provider gets 200 {"received": true} at once: what it means is the worker's to find out.
import { createHash } from 'node:crypto';
import type { Request, Router } from 'express';
import type { Db } from 'mongodb';
import { DEFAULT_ACCOUNT_ID, DEFAULT_CONNECTOR } from '../../domain/connectors.ts';
import { config } from '../../lib/config.ts';
import { errors } from '../../lib/errors.ts';
import { canExist } from '../../lib/ids.ts';
import { log } from '../../lib/log.ts';
import { webhookDetailsOf } from '../../lib/merchant-store.ts';
import { NotificationInbox } from '../../lib/notification-inbox.ts';
import type { ConnectorName } from '../../lib/schemas/common.ts';
import { acceptedSecrets, defaultAccountSecrets } from '../../lib/webhook-secret.ts';
import { proofHeader, verifyNotification } from '../../workers/connectors/kit/verify.ts';
import { MANIFESTS } from '../../workers/connectors/manifests.ts';
import type { Deps } from '../operations.ts';
import { rateLimit } from '../rate-limit.ts';
import { scopedRouter } from '../scope.ts';

/** The URL's query parameters (the first of each name), sorted; undefined when it has none. */
function queryOf(url: string): Record<string, string> | undefined {
  const params = new URL(url, 'http://local').searchParams;
  const names = [...new Set(params.keys())].sort();
  return names.length ? Object.fromEntries(names.map((n) => [n, params.get(n) ?? ''])) : undefined;
}

const badSignature = () => errors.webhookAuthentication();

/** What notifications are counted by: the connector account they name (ids that cannot exist are 404 anyway). */
const byAccount = (req: Request) => {
  const m = req.params.merchant_id as string;
  const a = req.params.merchant_connector_id as string;
  return canExist('merchant', m) && canExist('connectorAccount', a) ? `notices:${m}:${a}` : undefined;
};

export function webhooksRouter(db: Db, deps: Pick<Deps, 'setup' | 'queues' | 'redis'>): Router {
  const r = scopedRouter();
  const inbox = new NotificationInbox(db);
  const perAccount = rateLimit(deps.redis, config.providerNotificationsPerSecond, byAccount);

  /** The account's connector and the secrets a notification may be signed with; 404 for an unknown merchant or account (another merchant's too). */
  async function receiver(merchantId: string, mcaId: string): Promise<{ connector: ConnectorName; secrets: string[] }> {
    const unknown = errors.notFound('Merchant connector account');
    if (!canExist('merchant', merchantId) || !canExist('connectorAccount', mcaId)) throw unknown;
    const store = deps.setup.store;
    if (mcaId === DEFAULT_ACCOUNT_ID) {
      if (!(await store.merchant(merchantId))) throw unknown;
      return { connector: DEFAULT_CONNECTOR, secrets: defaultAccountSecrets(merchantId) };
    }
    // A deleted account's payments may still be at the provider, which goes on notifying about them.
    const account = await store.liveOrRetiredAccount(merchantId, mcaId);
    if (!account || !(await store.merchant(merchantId))) throw unknown;
    return { connector: account.connector_name, secrets: acceptedSecrets(webhookDetailsOf(account)) };
  }

  r.post('/webhooks/:merchant_id/:merchant_connector_id', perAccount, async (req: Request, res) => {
    const merchantId = req.params.merchant_id as string;
    const mcaId = req.params.merchant_connector_id as string;
    const { connector, secrets } = await receiver(merchantId, mcaId);
    const manifest = MANIFESTS[connector];
    if (!manifest?.webhook || !manifest.flows.includes('notification')) throw errors.notFound(`Notifications of ${connector}`);
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (manifest.webhook.scheme !== 'unsigned' && !secrets.length) {
      log.warn('notification refused: the connector account has no connector_webhook_details', { merchant_id: merchantId, merchant_connector_id: mcaId });
      throw badSignature();
    }
    const header = proofHeader(manifest.webhook);
    const given = header ? req.header(header) : undefined;
    const spec = manifest.webhook;
    const verified = spec.scheme === 'unsigned' || secrets.some((secret) => verifyNotification(spec, secret, raw, given));
    if (!verified) throw badSignature();
    // An unsigned notice may name its object only in the URL (Svea's push fills the order id into the pushUri it was
    // given): its query goes with it, and into its identity, so two orders' pushes with the same body are two notices.
    const query = spec.scheme === 'unsigned' ? queryOf(req.originalUrl) : undefined;
    const hash = createHash('sha256');
    if (query) hash.update(`?${new URLSearchParams(query).toString()}\n`);
    const job = {
      type: 'notification' as const,
      merchant_id: merchantId,
      merchant_connector_id: mcaId,
      connector,
      body: raw.toString('utf8'),
      body_sha256: hash.update(raw).digest('hex'),
      ...(query ? { query } : {}),
      received_at: new Date().toISOString(),
    };
    const first = await inbox.record({
      merchant_id: job.merchant_id,
      merchant_connector_id: job.merchant_connector_id,
      connector,
      body_sha256: job.body_sha256,
      body: job.body,
      ...(query ? { query } : {}),
      received_at: job.received_at,
    });
    // Queued again for a repeat too: if the first enqueue was lost the provider's retry brings it back; if not, the
    // job id is the same and nothing is added.
    await deps.queues.enqueueNotification(job);
    log.info('notification received', { merchant_id: merchantId, merchant_connector_id: mcaId, connector, body_sha256: job.body_sha256, repeat: !first });
    if (spec.scheme === 'unsigned' && spec.acknowledgement) res.type('text/plain').send(spec.acknowledgement);
    else res.json({ received: true });
  });
  return r;
}
