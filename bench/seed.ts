// Fast seeding of one merchant's payments for the list scenario: bulk inserts (insertMany, unordered, several batches
// in flight) of copies of payments created through the API. The copies are the stored documents of real payments
// (the `payments` projection and, for a refunded one, its row in `refunds`), read back from the database, with every
// id they carry replaced by a new one of the same prefix and length, and every timestamp moved back in time, so each
// copy is shaped exactly as the service stores a payment and the lists' indexes see distinct, ordered entries.
// Only the projections the lists read are written: no transitions (the copies are for reading; the webhook relay
// sees no outbox entry to derive events from), no events.
//
// As a script, into a database that already holds the merchant's two template payments (one succeeded, one
// succeeded and refunded, both created through the API):
//   node bench/seed.ts --mongodb-url mongodb://127.0.0.1:27017/<db> --merchant <merchant_id> --count 1000000
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { BSON, MongoClient, type Db, type Document } from 'mongodb';

/** An id the service generates: a short lower-case prefix, "_", then letters and digits (lib/ids.ts). */
const ID = /(?<![A-Za-z0-9_])([a-z]{2,8})_([A-Za-z0-9]{12,})(?![A-Za-z0-9])/g;
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,3})?Z/g;

/** A document's canonical Extended JSON cut at its ids and timestamps: each copy is a join of the parts. */
interface Compiled {
  parts: string[];
  /** Between parts[i] and parts[i+1]: an id (its index in `ids`) or a timestamp (its ms). */
  holes: ({ id: number } | { at: number })[];
}

function compile(doc: Document, ids: Map<string, number>, keep: Set<string>): Compiled {
  const { _id: _drop, ...rest } = doc;
  const text = BSON.EJSON.stringify(rest, { relaxed: false });
  const parts: string[] = [];
  const holes: Compiled['holes'] = [];
  const marks: { index: number; length: number; hole: Compiled['holes'][number] }[] = [];
  for (const m of text.matchAll(ID)) {
    if (keep.has(m[0])) continue;
    if (!ids.has(m[0])) ids.set(m[0], ids.size);
    marks.push({ index: m.index, length: m[0].length, hole: { id: ids.get(m[0])! } });
  }
  for (const m of text.matchAll(ISO)) marks.push({ index: m.index, length: m[0].length, hole: { at: Date.parse(m[0]) } });
  marks.sort((a, b) => a.index - b.index);
  let from = 0;
  for (const mark of marks) {
    parts.push(text.slice(from, mark.index));
    holes.push(mark.hole);
    from = mark.index + mark.length;
  }
  parts.push(text.slice(from));
  return { parts, holes };
}

/** Copy number n of an id: same prefix and length, unique per run and copy (the run's tag, then n in base 36 on 5 digits). */
function copyId(original: string, run: string, n: number): string {
  const cut = original.indexOf('_') + 1;
  const body = original.slice(cut);
  const unique = `${run}${n.toString(36).padStart(5, '0')}`;
  if (unique.length > body.length) throw new Error(`cannot copy ${original}: its id is too short for ${unique}`);
  return original.slice(0, cut) + body.slice(0, body.length - unique.length) + unique;
}

function render(c: Compiled, ids: string[], shiftMs: number): Document {
  let out = c.parts[0];
  for (let i = 0; i < c.holes.length; i++) {
    const h = c.holes[i];
    out += 'id' in h ? ids[h.id] : new Date(h.at + shiftMs).toISOString();
    out += c.parts[i + 1];
  }
  return BSON.EJSON.parse(out, { relaxed: false }) as Document;
}

export interface Templates {
  /** A payment as stored (the `payments` document), without a refund. */
  plain: Document;
  /** A payment as stored with one refund, and that refund's `refunds` document. */
  refunded: Document;
  refund: Document;
}

/** The merchant's newest payment without refunds and newest payment with one, with its refund: the copies' models. */
export async function findTemplates(db: Db, merchantId: string): Promise<Templates> {
  const payments = db.collection('payments');
  const plain = await payments.findOne({ merchant_id: merchantId, status: 'succeeded', 'refunds.0': { $exists: false } }, { sort: { created: -1 } });
  const refunded = await payments.findOne(
    { merchant_id: merchantId, 'refunds.0': { $exists: true }, 'refunds.1': { $exists: false } },
    { sort: { created: -1 } },
  );
  const refund = refunded
    ? await db.collection('refunds').findOne({ merchant_id: merchantId, refund_id: refunded.refunds[0].refund_id, payment_seq: { $exists: true } })
    : null;
  const missing = [plain ? '' : 'a succeeded payment without refunds', refunded && refund ? '' : 'a payment with one refund (and its refund)'].filter(Boolean);
  if (!plain || !refunded || !refund) throw new Error(`merchant ${merchantId} has no ${missing.join(' and no ')} to copy: make them through the API first`);
  return { plain, refunded, refund };
}

export interface SeedOptions {
  merchantId: string;
  /** Payments to add. */
  count: number;
  /** One payment in this many carries a refund (and adds a row to `refunds`); 0 for none. */
  refundEvery: number;
  /** Copies' `created` go back from the templates' by this much per copy. */
  stepMs?: number;
  /** Copies made before (by an earlier call for the same templates): these copies go on after them, numbered on. */
  offset?: number;
  /** Documents per insertMany, and how many insertMany in flight. */
  batch?: number;
  parallel?: number;
  onProgress?: (done: number) => void;
}

/** Inserts `count` copies of the templates; returns how many payments and refunds it wrote and how long it took. */
export async function seedPayments(db: Db, t: Templates, o: SeedOptions): Promise<{ payments: number; refunds: number; seconds: number }> {
  const keep = new Set([o.merchantId, t.plain.profile_id, t.refunded.profile_id].filter((x): x is string => typeof x === 'string'));
  const ids = new Map<string, number>();
  const plain = compile(t.plain, ids, keep);
  const refunded = compile(t.refunded, ids, keep);
  const refund = compile(t.refund, ids, keep);
  const originals = [...ids.keys()];
  const run = Date.now().toString(36).slice(-6);
  const step = o.stepMs ?? 1_000;
  const batch = o.batch ?? 1_000;
  const parallel = o.parallel ?? 4;
  const payments = db.collection('payments');
  const refunds = db.collection('refunds');
  const started = performance.now();
  let next = 0;
  let written = 0;
  let refundRows = 0;
  const lane = async () => {
    while (next < o.count) {
      const from = next;
      const to = Math.min(o.count, from + batch);
      next = to;
      const pays: Document[] = [];
      const refs: Document[] = [];
      for (let i = from; i < to; i++) {
        const n = i + (o.offset ?? 0);
        const copyIds = originals.map((id) => copyId(id, run, n));
        const shift = -(n + 1) * step;
        if (o.refundEvery > 0 && n % o.refundEvery === 0) {
          pays.push(render(refunded, copyIds, shift));
          refs.push(render(refund, copyIds, shift));
        } else pays.push(render(plain, copyIds, shift));
      }
      await payments.insertMany(pays, { ordered: false });
      if (refs.length) await refunds.insertMany(refs, { ordered: false });
      written += pays.length;
      refundRows += refs.length;
      o.onProgress?.(written);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return { payments: written, refunds: refundRows, seconds: (performance.now() - started) / 1000 };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      'mongodb-url': { type: 'string' },
      merchant: { type: 'string' },
      count: { type: 'string', default: '1000000' },
      'refund-every': { type: 'string', default: '10' },
    },
  });
  const url = values['mongodb-url'];
  const merchant = values.merchant;
  const count = Number(values.count);
  const refundEvery = Number(values['refund-every']);
  if (!url || !merchant || !Number.isInteger(count) || count < 1 || !Number.isInteger(refundEvery) || refundEvery < 0) {
    console.error('usage: node bench/seed.ts --mongodb-url mongodb://127.0.0.1:27017/<db> --merchant <merchant_id> [--count 1000000] [--refund-every 10]');
    process.exit(2);
  }
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  try {
    const db = client.db();
    const templates = await findTemplates(db, merchant);
    let shown = 0;
    const r = await seedPayments(db, templates, {
      merchantId: merchant,
      count,
      refundEvery,
      onProgress: (done) => {
        if (done - shown >= 50_000 || done === count) {
          shown = done;
          process.stderr.write(`seed: ${done} of ${count}\n`);
        }
      },
    });
    console.log(JSON.stringify({ ...r, per_second: Math.round(r.payments / r.seconds) }));
  } finally {
    await client.close();
  }
}
