// MongoDB connection and indexes. Only features FerretDB 1.x shares with MongoDB are used: correctness rests on
// unique-key inserts (which FerretDB enforces atomically), never on conditional updates or transactions.
import { MongoClient, type Db } from 'mongodb';
import { config } from './config.ts';

export async function connectMongo(url = config.mongodbUrl): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 50 });
  await client.connect();
  return { client, db: client.db() };
}

export async function ensureIndexes(db: Db): Promise<void> {
  await Promise.all([
    // payment_id leads: it is the selective field (an equality lookup on both fields uses the index in either order).
    db.collection('transitions').createIndex({ payment_id: 1, merchant_id: 1, seq: 1 }, { unique: true, name: 'payment_seq' }),
    db.collection('payments').createIndex({ payment_id: 1, merchant_id: 1 }, { unique: true, name: 'payment_merchant' }),
    // Present only on payments with an operation in flight, so the sweeper's lookup stays small.
    db.collection('payments').createIndex({ sweep_key: 1 }, { name: 'sweep_key' }),
    db.collection('merchants').createIndex({ merchant_id: 1 }, { unique: true, name: 'merchant_id' }),
    db.collection('merchants').createIndex({ publishable_key: 1 }, { unique: true, name: 'publishable_key' }),
    db.collection('api_keys').createIndex({ key_hash: 1 }, { unique: true, name: 'key_hash' }),
    db.collection('api_keys').createIndex({ key_id: 1 }, { unique: true, name: 'key_id' }),
    db.collection('payment_links').createIndex({ payment_link_id: 1, merchant_id: 1 }, { unique: true, name: 'payment_link_merchant' }),
    db.collection('business_profiles').createIndex({ profile_id: 1, merchant_id: 1 }, { unique: true, name: 'profile_merchant' }),
    db.collection('business_profiles').createIndex({ merchant_id: 1, profile_name: 1 }, { unique: true, name: 'merchant_profile_name' }),
    db.collection('connector_accounts').createIndex({ merchant_connector_id: 1, merchant_id: 1 }, { unique: true, name: 'mca_merchant' }),
    db.collection('connector_accounts').createIndex({ merchant_id: 1 }, { name: 'mca_by_merchant' }),
    db.collection('api_keys').createIndex({ merchant_id: 1 }, { name: 'keys_by_merchant' }),
    db.collection('customers').createIndex({ customer_id: 1, merchant_id: 1 }, { unique: true, name: 'customer_merchant' }),
  ]);
}

export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: number }).code === 11000;
}
