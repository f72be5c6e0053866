// MongoDB connection and indexes. Only features FerretDB 1.x shares with MongoDB are used: correctness rests on
// unique-key inserts (which FerretDB enforces atomically), never on conditional updates or transactions.
import { MongoClient, type Db } from 'mongodb';
import { config } from './config.ts';

export async function connectMongo(url = config.mongodbUrl): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 50 });
  await client.connect();
  return { client, db: client.db() };
}

type IndexKeys = Record<string, 1 | -1>;
export interface IndexSpec {
  collection: string;
  keys: IndexKeys;
  name: string;
  unique?: boolean;
}

/**
 * Every index we declare. Lookups by id lead with the id (the selective field). Lists lead with merchant_id, then
 * the fields a list filters on by equality, then its sort: one merchant's list reads only that merchant's entries,
 * in order, and never the rest of the collection (list-indexes.test.ts beside it checks each list against this table).
 */
export const INDEXES: IndexSpec[] = [
  { collection: 'transitions', keys: { payment_id: 1, merchant_id: 1, seq: 1 }, name: 'payment_seq', unique: true },
  // Only transitions whose merchant events are not derived yet carry `outbox`. The webhook relay reads them oldest
  // first, a batch at a time: with the order in the index a pass reads its batch, not the whole backlog and a sort.
  { collection: 'transitions', keys: { outbox: 1, at: 1, seq: 1 }, name: 'outbox_order' },
  { collection: 'payments', keys: { payment_id: 1, merchant_id: 1 }, name: 'payment_merchant', unique: true },
  // Present only on payments with an operation in flight, so the sweeper's lookup stays small.
  { collection: 'payments', keys: { sweep_key: 1 }, name: 'sweep_key' },
  { collection: 'payments', keys: { merchant_id: 1, created: -1, payment_id: -1 }, name: 'list_by_merchant' },
  { collection: 'payments', keys: { merchant_id: 1, customer_id: 1, created: -1, payment_id: -1 }, name: 'list_by_customer' },
  { collection: 'payments', keys: { merchant_id: 1, profile_id: 1, created: -1, payment_id: -1 }, name: 'list_by_profile' },
  // A provider's notification names the payment by the provider's id.
  { collection: 'payments', keys: { merchant_id: 1, connector_transaction_id: 1 }, name: 'by_connector_transaction' },
  { collection: 'merchants', keys: { merchant_id: 1 }, name: 'merchant_id', unique: true },
  // Every merchant id ever given, deleted merchants' too: the id is never handed to another owner (with its data).
  { collection: 'merchant_ids', keys: { merchant_id: 1 }, name: 'merchant_id', unique: true },
  { collection: 'merchants', keys: { publishable_key: 1 }, name: 'publishable_key', unique: true },
  { collection: 'api_keys', keys: { key_hash: 1 }, name: 'key_hash', unique: true },
  { collection: 'api_keys', keys: { key_id: 1 }, name: 'key_id', unique: true },
  { collection: 'api_keys', keys: { merchant_id: 1 }, name: 'keys_by_merchant' },
  // Merchant dashboard users (issue 23): one per email (stored normalised: trimmed, lower-cased).
  { collection: 'dashboard_users', keys: { email: 1 }, name: 'email', unique: true },
  { collection: 'dashboard_users', keys: { merchant_id: 1 }, name: 'dashboard_users_by_merchant' },
  { collection: 'payment_links', keys: { payment_link_id: 1, merchant_id: 1 }, name: 'payment_link_merchant', unique: true },
  { collection: 'business_profiles', keys: { profile_id: 1, merchant_id: 1 }, name: 'profile_merchant', unique: true },
  { collection: 'business_profiles', keys: { merchant_id: 1, profile_name: 1 }, name: 'merchant_profile_name', unique: true },
  { collection: 'connector_accounts', keys: { merchant_connector_id: 1, merchant_id: 1 }, name: 'mca_merchant', unique: true },
  { collection: 'connector_accounts', keys: { merchant_id: 1 }, name: 'mca_by_merchant' },
  { collection: 'retired_connector_accounts', keys: { merchant_connector_id: 1, merchant_id: 1 }, name: 'retired_mca_merchant', unique: true },
  { collection: 'customers', keys: { customer_id: 1, merchant_id: 1 }, name: 'customer_merchant', unique: true },
  // Mandates and saved payment methods (issue 22): one id per merchant; a customer's, newest first.
  { collection: 'mandates', keys: { mandate_id: 1, merchant_id: 1 }, name: 'mandate_merchant', unique: true },
  { collection: 'mandates', keys: { merchant_id: 1, customer_id: 1, created_at: -1, mandate_id: -1 }, name: 'mandates_by_customer' },
  { collection: 'payment_methods', keys: { payment_token: 1, merchant_id: 1 }, name: 'payment_token_merchant', unique: true },
  { collection: 'payment_methods', keys: { merchant_id: 1, customer_id: 1, created_at: -1, payment_token: -1 }, name: 'payment_methods_by_customer' },
  // One refund_id names one refund of a merchant (the gateway's claim); the lists of POST /refunds/list.
  { collection: 'refunds', keys: { refund_id: 1, merchant_id: 1 }, name: 'refund_merchant', unique: true },
  { collection: 'refunds', keys: { merchant_id: 1, created_at: -1, refund_id: -1 }, name: 'refunds_list' },
  { collection: 'refunds', keys: { merchant_id: 1, payment_id: 1, created_at: -1, refund_id: -1 }, name: 'refunds_by_payment' },
  { collection: 'refunds', keys: { merchant_id: 1, profile_id: 1, created_at: -1, refund_id: -1 }, name: 'refunds_by_profile' },
  { collection: 'customers', keys: { merchant_id: 1, created_at: -1, customer_id: -1 }, name: 'customers_list' },
  { collection: 'disputes', keys: { dispute_id: 1, merchant_id: 1 }, name: 'dispute_merchant', unique: true },
  // GET /disputes/list, newest received first, unfiltered and by each filter (a one-value list is an equality).
  { collection: 'disputes', keys: { merchant_id: 1, created_at: -1, dispute_id: -1 }, name: 'disputes_list' },
  { collection: 'disputes', keys: { merchant_id: 1, dispute_status: 1, created_at: -1, dispute_id: -1 }, name: 'disputes_by_status' },
  { collection: 'disputes', keys: { merchant_id: 1, dispute_stage: 1, created_at: -1, dispute_id: -1 }, name: 'disputes_by_stage' },
  { collection: 'disputes', keys: { merchant_id: 1, connector: 1, created_at: -1, dispute_id: -1 }, name: 'disputes_by_connector' },
  { collection: 'disputes', keys: { merchant_id: 1, connector_reason: 1, created_at: -1, dispute_id: -1 }, name: 'disputes_by_reason' },
  // Merchant events: one per event_id (derived deterministically, so a relay run twice writes one); GET /events lists
  // newest first, by merchant and by object; a payment's pending events in order (webhook ordering); pending ones
  // for re-enqueueing deliveries lost from Redis.
  { collection: 'events', keys: { event_id: 1 }, name: 'event_id', unique: true },
  { collection: 'events', keys: { merchant_id: 1, created_at: -1, event_id: -1 }, name: 'events_list' },
  { collection: 'events', keys: { merchant_id: 1, object_id: 1, created_at: -1, event_id: -1 }, name: 'events_by_object' },
  { collection: 'events', keys: { payment_id: 1, merchant_id: 1, sequence: 1, order: 1 }, name: 'events_by_payment' },
  { collection: 'events', keys: { delivery_status: 1 }, name: 'events_by_delivery_status' },
  { collection: 'event_attempts', keys: { event_id: 1, started_at: 1 }, name: 'attempts_by_event' },
  // The same notification (same account, same bytes) is recorded once; ordering is judged per provider object.
  { collection: 'provider_notifications', keys: { merchant_id: 1, merchant_connector_id: 1, body_sha256: 1 }, name: 'notification_identity', unique: true },
  {
    collection: 'provider_notifications',
    keys: { merchant_id: 1, merchant_connector_id: 1, object_key: 1, provider_updated_at: -1 },
    name: 'notifications_by_object',
  },
];

/** Indexes an earlier version declared and this one replaced: dropped where they are still found. */
export const RETIRED_INDEXES: Pick<IndexSpec, 'collection' | 'name'>[] = [
  // { outbox: 1 }: its lookups ended in a sort of the whole outbox (now outbox_order).
  { collection: 'transitions', name: 'outbox' },
];

export async function ensureIndexes(db: Db): Promise<void> {
  await Promise.all([
    ...INDEXES.map((i) => db.collection(i.collection).createIndex(i.keys, { name: i.name, ...(i.unique ? { unique: true } : {}) })),
    ...RETIRED_INDEXES.map((i) => dropIndexIfPresent(db, i.collection, i.name)),
    idempotencyExpiry(db),
  ]);
}

/** MongoDB's answers when there is nothing to drop (processes starting side by side race to drop the same index). */
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

async function dropIndexIfPresent(db: Db, collection: string, name: string): Promise<void> {
  try {
    await db.collection(collection).dropIndex(name);
  } catch (err) {
    const code = mongoCode(err);
    if (code !== NAMESPACE_NOT_FOUND && code !== INDEX_NOT_FOUND) throw err;
  }
}

/** FerretDB's answer to an option it does not have. */
const NOT_IMPLEMENTED = 238;

/**
 * Idempotency records are deleted once past expires_at by a TTL index. FerretDB 1.x refuses TTL indexes
 * (NotImplemented): there a plain index serves the gateway's own deletion of expired records (gateway/idempotency.ts).
 */
async function idempotencyExpiry(db: Db): Promise<void> {
  const coll = db.collection('idempotency_keys');
  try {
    await coll.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0, name: 'expires_at_ttl' });
  } catch (err) {
    if (mongoCode(err) !== NOT_IMPLEMENTED) throw err;
    await coll.createIndex({ expires_at: 1 }, { name: 'expires_at' });
  }
}

/** The server's error code of a failed command, if it is one. */
export function mongoCode(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'number' ? err.code : undefined;
}

export function isDuplicateKey(err: unknown): boolean {
  return mongoCode(err) === 11000;
}
