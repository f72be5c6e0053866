// `npm run reseal`: re-seals every stored secret that is not under the current MASTER_ENC_KEY (after a rotation, see
// the README), so that the former key can be dropped from MASTER_ENC_KEYS_PREVIOUS. Safe to run again at any time.
import type { Db } from 'mongodb';
import { currentKeyId, keyIdOf, open, seal } from '../lib/secret-box.ts';

/** Every sealed field: its collection, the field, and the field holding the id it is bound to. */
export const SEALED_FIELDS = [
  { collection: 'business_profiles', field: 'payment_response_hash_key_sealed', boundTo: 'profile_id' },
  { collection: 'connector_accounts', field: 'connector_account_details_sealed', boundTo: 'merchant_connector_id' },
  { collection: 'connector_accounts', field: 'connector_webhook_details_sealed', boundTo: 'merchant_connector_id' },
  { collection: 'idempotency_keys', field: 'body', boundTo: '_id' },
] as const;

export async function reseal(db: Db): Promise<Record<string, number>> {
  const current = currentKeyId();
  const counts: Record<string, number> = {};
  for (const { collection, field, boundTo } of SEALED_FIELDS) {
    const coll = db.collection<Record<string, unknown>>(collection);
    counts[collection] = 0;
    for await (const doc of coll.find({ [field]: { $type: 'string' } })) {
      const sealed = doc[field] as string;
      if (keyIdOf(sealed) === current) continue;
      const id = String(doc[boundTo]);
      // Only if unchanged since read: a value written meanwhile is already under the current key.
      const r = await coll.updateOne({ _id: doc._id, [field]: sealed }, { $set: { [field]: seal(open(sealed, id), id) } });
      counts[collection] += r.modifiedCount;
    }
  }
  return counts;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { connectMongo } = await import('../lib/mongo.ts');
  const { client, db } = await connectMongo();
  try {
    console.log(`reseal: re-sealed under key ${currentKeyId()}:`, JSON.stringify(await reseal(db)));
  } finally {
    await client.close();
  }
}
