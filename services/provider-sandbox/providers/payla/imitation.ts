// PAYONE's Server API as the sandbox imitates it for Payla's secured invoice (clearingtype fnc, financingtype PIV;
// the worker's side: workers/connectors/payla/), mounted at /payla, so {sandbox}/payla stands for https://api.pay1.de:
//   POST /payla/post-gateway/   form-encoded key=value parameters; `request` = preauthorization | authorization |
//                               capture | debit. Answers HTTP 200, text/plain lines: status=APPROVED (txid, userid,
//                               clearing_* bank data) | status=ERROR (errorcode, errormessage, customermessage).
// Account parameters on every call: mid, aid, portalid, key = md5 (or sha384) hex of the portal key, api_version 3.x,
// mode test|live. Amounts in minor units, debits negative; follow-ups carry sequencenumber = previous + 1.
// TransactionStatus notifications (appointed, capture, debit) go form-encoded, with key = md5 of the portal key, to
// the URL configured for the portal (the PMI's setting: operator call POST /sandbox/payla/portals/:portalid/
// transaction-status-url {url}), retried with the shared Retrier until the shop answers TSOK.
// Requests are checked by PAYONE's published rules (required parameters, lengths, enums, what a call must not carry),
// read from the connector's fixtures/rules.json, so the imitation cannot agree with a belief of the connector alone:
// the (pre)authorization needs `ip`; captures and debits carry the basket it/id/pr/no/de/va[n] and captures no
// capturemode (issue 21). A capture of 0 releases what is left; what is not captured stays reserved.
// Error codes are the imitation's but for 307 (PAYONE's published list gives 1-99 to card issuers' answers): 1001 a
// parameter faulty or missing, the account's (key, portalid, mid, aid) included (the message names it), 307 risk decline, 911 reference used, 921 sequencenumber,
// 922 amount above what is open, 950 transaction closed, 600 txid unknown, 991 debit refused.
// Magic tags (customer email, ../../magic.ts): +decline (307), +slow, +flaky (500 for the first two calls of a
// reference), +refund_fail (991), +refund_flaky (500 for the first two debits of a sequence). PAYONE's fnc decides at
// once and debits synchronously: +redirect, +review and +refund_pending change nothing.
import express, { type Router } from 'express';
import { createHash, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { config } from '../../../../lib/config.ts';
import { firstBreach, RequestRules } from '../../../../lib/request-rules.ts';
import { counter, keptState, records } from '../../kept.ts';
import { magicTags } from '../../magic.ts';
import { keep, Retrier, retryFirstMs, type Attempts } from '../../notifier.ts';
import type { Imitation } from '../../provider.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** The PAYONE portal this imitation issues to the sandbox's merchant (the connector's manifest names the same as its sandbox default). */
const PAYLA_SANDBOX = { portalid: '2030968', mid: '42865', aid: '42949', portal_key: 'payla-sandbox-portal-key' } as const;

interface Portal {
  portalid: string;
  mid: string;
  aid: string;
  portal_key: string;
  txstatus_url: string | null;
}
interface Transaction {
  txid: string;
  portalid: string;
  reference: string;
  request: 'preauthorization' | 'authorization';
  userid: string;
  email: string;
  currency: string;
  amount: number;
  captured: number;
  refunded: number;
  released: number;
  completed: boolean;
  sequence: number;
  device_token: string;
  businessrelation: string;
  basket: Record<string, string>[];
  created_at: string;
}
interface Delivery extends Attempts {
  txid: string;
  txaction: string;
  sequencenumber: number;
  url: string;
  body: string;
  created_at: string;
}

type Params = Record<string, string>;
type Answer = { http: number; lines: Params };
const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
const sha384 = (s: string) => createHash('sha384').update(s, 'utf8').digest('hex');
const has = (p: Params, k: string) => typeof p[k] === 'string' && p[k]!.trim() !== '';

const error = (errorcode: number, errormessage: string, customermessage = 'Bei der Bearbeitung dieser Transaktion ist ein Fehler aufgetreten.'): Answer => ({
  http: 200,
  lines: { status: 'ERROR', errorcode: String(errorcode), errormessage, customermessage },
});
const faulty = (param: string, why = 'faulty or missing') => error(1001, `Parameter {${param}} ${why}`);
const approved = (lines: Params): Answer => ({ http: 200, lines: { status: 'APPROVED', ...lines } });
/** PAYONE's answer format: one key=value per line. */
export const toLines = (lines: Params) =>
  Object.entries(lines)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');

type Call = 'authorize' | 'capture' | 'void' | 'debit';
const RULES_FILE = JSON.parse(readFileSync(new URL('../../../../workers/connectors/payla/fixtures/rules.json', import.meta.url), 'utf8'));
/** PAYONE's published rules per call (the connector's fixtures/rules.json). */
const RULES: Record<Call, RequestRules> = {
  authorize: RequestRules.parse(RULES_FILE.authorize),
  capture: RequestRules.parse(RULES_FILE.capture),
  void: RequestRules.parse(RULES_FILE.void),
  debit: RequestRules.parse(RULES_FILE.debit),
};
const FORBIDDEN = z.record(z.string(), z.array(z.string())).parse(RULES_FILE.forbidden);

/** The form as the rules read it: its parameters, with the basket positions it[n]..va[n] as items[n-1]. */
export function rulesView(p: Params): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  const items: Record<string, string>[] = [];
  for (const [k, v] of Object.entries(p)) {
    const m = /^(it|id|pr|no|de|va)\[(\d+)\]$/.exec(k);
    if (!m) view[k] = v;
    else (items[Number(m[2]) - 1] ??= {})[m[1]!] = v;
  }
  const list = Array.from(items, (i) => i ?? {});
  if (list.length) view.items = list;
  return view;
}

/** The first published rule the call breaks, as PAYONE's parameter error naming PAYONE's own parameter. */
function breach(call: Call, p: Params): Answer | null {
  for (const k of FORBIDDEN[call] ?? []) if (k in p) return error(1001, `Parameter {${k}} not allowed for clearingtype fnc`);
  const b = firstBreach(RULES[call], rulesView(p));
  if (!b) return null;
  const field = b.field.replace(/^items\[(\d+)\]\.(\w+)$/, (_, i: string, k: string) => `${k}[${Number(i) + 1}]`).replace(/^items$/, 'it[1]');
  return faulty(field, b.message.endsWith('is required') ? 'faulty or missing' : b.message.replace(b.field, '').trim());
}

/** The basket positions it[n]..va[n], n = 1.. without gaps, or the first faulty parameter's name. */
function readBasket(p: Params): Record<string, string>[] | string {
  const out: Record<string, string>[] = [];
  for (let n = 1; has(p, `it[${n}]`) || has(p, `id[${n}]`) || has(p, `pr[${n}]`); n += 1) {
    for (const k of ['it', 'id', 'pr', 'no', 'de', 'va']) if (!has(p, `${k}[${n}]`)) return `${k}[${n}]`;
    if (!['goods', 'shipment', 'handling', 'voucher'].includes(p[`it[${n}]`]!)) return `it[${n}]`;
    if (!/^-?\d+$/.test(p[`pr[${n}]`]!)) return `pr[${n}]`;
    if (!/^\d+$/.test(p[`no[${n}]`]!) || p[`no[${n}]`] === '0') return `no[${n}]`;
    if (!/^\d+$/.test(p[`va[${n}]`]!)) return `va[${n}]`;
    out.push({ it: p[`it[${n}]`]!, id: p[`id[${n}]`]!, pr: p[`pr[${n}]`]!, no: p[`no[${n}]`]!, de: p[`de[${n}]`]!, va: p[`va[${n}]`]! });
  }
  return out.length ? out : 'it[1]';
}

/** The basket's total in minor units (unit price x quantity). */
const basketSum = (basket: Record<string, string>[]) => basket.reduce((s, l) => s + Number(l.pr) * Number(l.no), 0);

export function paylaImitation(idem: IdempotencyStore) {
  const router: Router = express.Router();
  const portals = new Map<string, Portal>();
  const seed = () => {
    portals.clear();
    const id = process.env.PAYLA_API_KEY || PAYLA_SANDBOX.portalid;
    portals.set(id, { portalid: id, mid: PAYLA_SANDBOX.mid, aid: PAYLA_SANDBOX.aid, portal_key: PAYLA_SANDBOX.portal_key, txstatus_url: null });
  };
  seed();
  const transactions = new Map<string, Transaction>();
  const deliveries: Delivery[] = [];
  const retrier = new Retrier(retryFirstMs());
  let nextTxid = 300_000_000 + randomInt(1_000_000);

  /** A TransactionStatus for the transaction's latest sequence, to the portal's configured URL (none: not sent). */
  function notify(t: Transaction, txaction: string, extra: Params = {}) {
    const portal = portals.get(t.portalid);
    if (!portal?.txstatus_url) return;
    const params: Params = {
      key: md5(portal.portal_key),
      txaction,
      portalid: portal.portalid,
      aid: portal.aid,
      mode: 'test',
      clearingtype: 'fnc',
      txid: String(t.txid),
      reference: t.reference,
      sequencenumber: String(t.sequence),
      userid: t.userid,
      currency: t.currency,
      price: (t.amount / 100).toFixed(2),
      balance: ((t.captured - t.refunded) / 100).toFixed(2),
      receivable: ((t.captured - t.refunded) / 100).toFixed(2),
      txtime: String(Math.floor(Date.now() / 1000)),
      transaction_status: 'completed',
      ...extra,
    };
    const body = new URLSearchParams(params).toString();
    const d: Delivery = {
      txid: t.txid,
      txaction,
      sequencenumber: t.sequence,
      url: portal.txstatus_url,
      body,
      created_at: new Date().toISOString(),
      attempts: 0,
      delivered: false,
      last_status: null,
      last_error: null,
      next_attempt_at: null,
    };
    keep(deliveries, d);
    // Delivered only when the shop answers TSOK (PAYONE's plugins all do); anything else is sent again.
    retrier.post(
      d,
      portal.txstatus_url,
      body,
      { 'content-type': 'application/x-www-form-urlencoded' },
      { provider: 'payla', txid: t.txid, txaction },
      (text) => text.trim() === 'TSOK',
    );
  }

  /** The account parameters: the portal's mid, aid and hashed key; else PAYONE's error for the first one wrong. */
  function account(p: Params): Portal | Answer {
    const portal = has(p, 'portalid') ? portals.get(p.portalid!) : undefined;
    if (!portal) return faulty('portalid');
    const key = (p.key ?? '').toLowerCase();
    if (key !== md5(portal.portal_key) && key !== sha384(portal.portal_key)) return faulty('key');
    if (p.mid !== portal.mid) return faulty('mid');
    if (p.aid !== portal.aid) return faulty('aid');
    if (!/^3\.\d+$/.test(p.api_version ?? '')) return faulty('api_version');
    if (p.mode !== 'test' && p.mode !== 'live') return faulty('mode');
    return portal;
  }

  async function authorize(p: Params, portal: Portal): Promise<Answer> {
    const refused = breach('authorize', p);
    if (refused) return refused;
    if (!/^[1-9]\d*$/.test(p.amount ?? '')) return faulty('amount');
    if (!/^[A-Za-z0-9_./-]{1,20}$/.test(p.reference ?? '')) return faulty('reference');
    // The birthday for B2B too (PAYONE's table marks it required; its Shopware plugin refuses to pay without one).
    if (!/^(19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(p.birthday ?? '')) return faulty('birthday');
    if (p.businessrelation === 'b2b' && !has(p, 'company')) return faulty('company');
    const basket = readBasket(p);
    if (typeof basket === 'string') return faulty(basket);
    const sum = basketSum(basket);
    if (sum !== Number(p.amount)) return error(1001, `Parameter {amount} does not match the basket (${sum})`);
    const email = p.email!;
    const tags = magicTags(email);
    if (tags.has('flaky') && idem.count(`payla:flaky:${portal.portalid}:${p.reference}`) <= 2) return { http: 500, lines: {} };
    if ([...transactions.values()].some((t) => t.portalid === portal.portalid && t.reference === p.reference)) {
      return error(911, 'Reference number already exists');
    }
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    if (tags.has('decline')) {
      return error(307, 'Declined by risk check', 'Leider ist die Zahlung per Rechnungskauf nicht möglich. Bitte wählen Sie eine andere Zahlungsart.');
    }
    const t: Transaction = {
      txid: String(nextTxid++),
      portalid: portal.portalid,
      reference: p.reference!,
      request: p.request as Transaction['request'],
      userid: String(100_000_000 + randomInt(900_000_000)),
      email,
      currency: p.currency!,
      amount: Number(p.amount),
      captured: p.request === 'authorization' ? Number(p.amount) : 0,
      refunded: 0,
      released: 0,
      completed: p.request === 'authorization',
      sequence: 0,
      device_token: p['add_paydata[device_token]']!,
      businessrelation: p.businessrelation!,
      basket,
      created_at: new Date().toISOString(),
    };
    transactions.set(t.txid, t);
    notify(t, 'appointed');
    return approved({
      txid: t.txid,
      userid: t.userid,
      clearing_bankaccountholder: 'Payla GmbH',
      clearing_bankiban: 'DE89370400440532013000',
      clearing_bankbic: 'COBADEFFXXX',
      clearing_reference: `PAYLA${t.txid}`,
    });
  }

  /** The transaction and its next sequence number, or PAYONE's error. */
  function followUp(p: Params, portal: Portal): Transaction | Answer {
    const t = has(p, 'txid') ? transactions.get(p.txid!) : undefined;
    if (!t || t.portalid !== portal.portalid) return error(600, 'Transaction not found');
    if (!/^\d+$/.test(p.sequencenumber ?? '')) return faulty('sequencenumber');
    if (Number(p.sequencenumber) !== t.sequence + 1) return error(921, `Sequencenumber ${p.sequencenumber} invalid (expected ${t.sequence + 1})`);
    if (p.currency !== t.currency) return faulty('currency');
    return t;
  }

  /**
   * A capture: of 0, the release of what is left (the void); else of part or all of what is open, with its basket
   * (its total the amount). No capturemode: what is not captured stays reserved for further captures.
   */
  async function capture(p: Params, portal: Portal): Promise<Answer> {
    const release = p.amount === '0';
    const refused = breach(release ? 'void' : 'capture', p);
    if (refused) return refused;
    const t = followUp(p, portal);
    if ('http' in t) return t;
    if (!/^\d+$/.test(p.amount ?? '')) return faulty('amount');
    if (t.completed) return error(950, 'Transaction already completed');
    const amount = Number(p.amount);
    if (amount > t.amount - t.captured - t.released) return error(922, `Amount exceeds the open amount (${t.amount - t.captured - t.released})`);
    if (!release) {
      const basket = readBasket(p);
      if (typeof basket === 'string') return faulty(basket);
      if (basketSum(basket) !== amount) return error(1001, `Parameter {amount} does not match the basket (${basketSum(basket)})`);
    }
    if (magicTags(t.email).has('slow')) await sleep(config.sandboxSlowMs);
    t.sequence += 1;
    t.captured += amount;
    if (release) t.released = t.amount - t.captured;
    if (t.captured + t.released >= t.amount) t.completed = true;
    notify(t, 'capture');
    return approved({ txid: t.txid, settleaccount: p.settleaccount === 'no' ? 'no' : 'yes' });
  }

  async function debit(p: Params, portal: Portal): Promise<Answer> {
    const refused = breach('debit', p);
    if (refused) return refused;
    const t = followUp(p, portal);
    if ('http' in t) return t;
    if (!/^-[1-9]\d*$/.test(p.amount ?? '')) return faulty('amount', 'must be negative');
    const basket = readBasket(p);
    if (typeof basket === 'string') return faulty(basket);
    if (basketSum(basket) !== Number(p.amount)) return error(1001, `Parameter {amount} does not match the basket (${basketSum(basket)})`);
    const tags = magicTags(t.email);
    if (tags.has('refund_flaky') && idem.count(`payla:refund_flaky:${t.txid}:${p.sequencenumber}`) <= 2) return { http: 500, lines: {} };
    const amount = -Number(p.amount);
    if (amount > t.captured - t.refunded) return error(922, `Amount exceeds the captured amount (${t.captured - t.refunded})`);
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    if (tags.has('refund_fail')) return error(991, 'Debit declined', 'Die Gutschrift konnte nicht ausgeführt werden.');
    t.sequence += 1;
    t.refunded += amount;
    notify(t, 'debit');
    return approved({ txid: t.txid, settleaccount: 'yes' });
  }

  router.post('/post-gateway/', async (req, res, next) => {
    try {
      const p = (req.body ?? {}) as Params;
      const portal = account(p);
      let out: Answer;
      if ('http' in portal) out = portal;
      else {
        switch (p.request) {
          case 'preauthorization':
          case 'authorization':
            out = await authorize(p, portal);
            break;
          case 'capture':
            out = await capture(p, portal);
            break;
          case 'debit':
            out = await debit(p, portal);
            break;
          default:
            out = faulty('request');
        }
      }
      if (out.http >= 500) return res.status(out.http).type('text/plain').send('Internal Server Error');
      res.status(200).type('text/plain').send(toLines(out.lines));
    } catch (err) {
      next(err);
    }
  });

  /** The PMI's TransactionStatus URL of a portal (the merchant sets it there). */
  const operator: Router = express.Router();
  operator.post('/payla/portals/:portalid/transaction-status-url', (req, res) => {
    const portal = portals.get(req.params.portalid!);
    const url = (req.body as { url?: unknown } | undefined)?.url;
    if (!portal) return res.status(404).json({ error: 'unknown portal' });
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return res.status(400).json({ error: 'url must be http(s)' });
    portal.txstatus_url = url;
    res.json({ portalid: portal.portalid, txstatus_url: url });
  });

  const reset = () => {
    transactions.clear();
    deliveries.length = 0;
    retrier.reset();
    seed();
  };
  /** Transactions (with their sequence numbers), the portals' TransactionStatus URLs, the notices sent, the next txid. */
  const saved = keptState({
    transactions: records<Transaction>('txid'),
    portals: records<Portal>('portalid'),
    notifications: records<Delivery>('txid'),
    nextTxid: counter,
  });
  const state = {
    save: () => ({ transactions: [...transactions.values()], portals: [...portals.values()], notifications: deliveries, nextTxid }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const t of s.transactions) transactions.set(t.txid, t);
      for (const portal of s.portals) portals.set(portal.portalid, portal);
      deliveries.push(...s.notifications);
      if (s.nextTxid !== undefined) nextTxid = s.nextTxid;
    },
  };
  return { router, operator, transactions, deliveries, reset, state };
}

export const imitation: Imitation = (idem) => {
  const r = paylaImitation(idem);
  return {
    router: r.router,
    operator: r.operator,
    reset: r.reset,
    state: r.state,
    views: {
      transactions: (q) =>
        [...r.transactions.values()].filter(
          (t) => (!q.txid || t.txid === q.txid) && (!q.reference || t.reference === q.reference) && (!q.email || t.email === q.email),
        ),
      notifications: (q) => r.deliveries.filter((d) => (!q.txid || d.txid === q.txid) && (!q.txaction || d.txaction === q.txaction)),
    },
  };
};
