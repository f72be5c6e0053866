// Ratepay's Payment API 2.0 as the sandbox imitates it (the worker's side: workers/connectors/ratepay/), mounted at
// /ratepay, so {sandbox}/ratepay stands for both https://oauth.ratepay.com and https://api(-integration).ratepay.com:
//   POST /ratepay/oauth/token                                             OAuth2 client credentials -> JWT (oauth.ts)
//   POST /ratepay/transaction/management/v2/transactions                  authorize (synchronous risk decision)
//   GET  /ratepay/transaction/management/v2/transactions/:id              read the transaction
//   POST /ratepay/transaction/management/v2/transactions/:id/captures     capture (partial, several)
//   GET  /ratepay/transaction/management/v2/transactions/:id/captures[/:capture_id]
//   POST /ratepay/transaction/management/v2/transactions/:id/cancellations   cancel what is left of the authorization
//   POST /ratepay/transaction/management/v2/transactions/:id/refunds      refund captured money (partial, several)
//   GET  /ratepay/transaction/management/v2/transactions/:id/refunds[/:refund_id]
// Ratepay's own material decides the dialect (workers/connectors/ratepay/fixtures/, sources in its SOURCES.md): every
// body is checked by the request rules transcribed from docs.ratepay.com (rules.ts, the same file the connector's
// tests use), declines use the categories and reasons Ratepay lists (fixtures/docs/declines.json), and the answers
// have the published shapes: the transaction read has no status (its `decline` tells a declined one), follow-ups
// answer their id, `_links` and `created`. Amounts are decimals in the currency's major unit; every POST takes an
// optional Idempotency-Key of at most 64 characters (a repeat returns the first answer; the same key with another
// body is 409 CONFLICT). Declines: HTTP status + {ratepay_transaction_id?, decline: {category, reasons[]}, message}
// (the envelope and `message` are UNVERIFIED: Ratepay publishes the decline object, not a 4xx example).
// Magic tags (customer email, ../../magic.ts): +decline (422 RISK_DECISION), +slow, +flaky (500 twice per key),
// +refund_fail (422 UNPROCESSABLE_OPERATION REFUND_AMOUNT_TOO_HIGH, Ratepay's only documented refusal of a refund),
// +refund_flaky; Ratepay's own sandbox trigger buyer_identity@ratepay.com -> 422 BUYER_IDENTITY. +redirect, +review
// and +refund_pending have no Ratepay counterpart (no redirect, synchronous refunds) and change nothing.
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes } from 'node:crypto';
import { config } from '../../../../lib/config.ts';
import { toDecimalString } from '../../../../lib/money.ts';
import type { Currency } from '../../../../lib/schemas/common.ts';
import { counter, keptState, records, savedKey } from '../../kept.ts';
import { magicTags } from '../../magic.ts';
import type { IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';
import { isRefusal, readBasket, refusal, type Refusal } from './basket.ts';
import { TokenIssuer } from './oauth.ts';
import { checkRules, IDEMPOTENCY_KEY_MAX } from './rules.ts';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { setTimeout as sleep } from 'node:timers/promises';

/** The sandbox's Ratepay client and partner shops (the connector's sandbox account names the same; no code shared). */
export const SANDBOX_CLIENT = {
  client_id: 'ratepay_sandbox_client',
  client_secret: 'ratepay_sandbox_client_secret',
  partner_shops: ['INTEGRATION_TE_DACH', 'INTEGRATION_TE_B2B'],
} as const;

/** The imitation's own bookkeeping (Ratepay's read shows no status; the stack tests look at it through the views). */
type Status = 'AUTHORIZED' | 'PARTIALLY_CAPTURED' | 'CAPTURED' | 'CANCELLED' | 'DECLINED' | 'CLOSED';
interface Operation {
  id: string;
  partner_operation_id: string | null;
  gross: number;
  partner_invoice_id?: string | null;
  created_date: string;
}
interface Transaction {
  ratepay_transaction_id: string;
  client_id: string;
  partner_transaction_id: string | null;
  partner_shop_id: string;
  shop_transaction_id: string | null;
  idempotency_key: string | null;
  status: Status;
  currency: string;
  email: string | null;
  authorized: number;
  captured: number;
  cancelled: number;
  refunded: number;
  decline?: { category: string; reasons: string[] };
  captures: Operation[];
  cancellations: Operation[];
  refunds: Operation[];
  authorization_expires: string;
  created_date: string;
  updated_date: string;
}

const COUNTRIES = ['DE', 'AT', 'CH', 'NL'];
const CURRENCIES = ['EUR', 'CHF'];
/** The basket limits of the sandbox contract (CONTRACT / BASKET_AMOUNT_TOO_LOW|HIGH), in minor units. */
const MIN_BASKET = 100;
const MAX_BASKET = 1_000_000;
const AUTHORIZATION_DAYS = 30;
const newId = () => randomBytes(15).toString('base64url');
const str = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

type Answer = { status: number; body: unknown };
const declined = (r: Refusal, transactionId?: string): Answer => ({
  status: r.status,
  body: { ...(transactionId ? { ratepay_transaction_id: transactionId } : {}), decline: { category: r.category, reasons: r.reasons }, message: r.message },
});
const missing = (field: string) => refusal(400, 'SYNTAX', 'INVALID_FIELDS', `${field} is required`);
const notFound = (reason: string, what: string): Answer => declined(refusal(404, 'RESOURCE_NOT_FOUND', reason, `${what} not found`));

/** Whole years between a YYYY-MM-DD birth date and today. */
function age(birth: string, now = new Date()): number {
  const [y, m, d] = birth.split('-').map(Number) as [number, number, number];
  let years = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) years -= 1;
  return years;
}

/** The authorization request -> a refusal, or null when Ratepay would go on to its risk check. */
function checkAuthorization(b: Record<string, any>): Refusal | null {
  const syntax = checkRules('Authorization', b);
  if (syntax) return syntax;
  const buyer = b.buyer as Record<string, any>;
  const person = buyer.person as Record<string, string | undefined> | undefined;
  const company = buyer.company as Record<string, string | undefined> | undefined;
  if (!person && !company) return missing('buyer.person or buyer.company');
  if (company) {
    if (!str(company.name)) return missing('buyer.company.name');
  } else {
    for (const f of ['first_name', 'last_name', 'date_of_birth']) if (!str(person![f])) return missing(`buyer.person.${f}`);
    if (age(person!.date_of_birth!) < 18) return refusal(422, 'BUYER_DATA', 'INVALID_PERSON_DATA', 'The buyer must be at least 18 years old');
  }
  const a = buyer.billing_address as Record<string, string>;
  if (!str(a.zip_code)) return missing('buyer.billing_address.zip_code');
  if (!str(buyer.contact?.email)) return missing('buyer.contact.email');
  if (!CURRENCIES.includes(b.currency)) return refusal(422, 'CONTRACT', 'CURRENCY_NOT_ALLOWED', `currency ${b.currency} is not part of the contract`);
  if (!COUNTRIES.includes(a.country_code!))
    return refusal(422, 'CONTRACT', 'BILLING_COUNTRY_NOT_ALLOWED', `billing country ${String(a.country_code)} is not part of the contract`);
  if (!str(b.device?.token)) return missing('device.token');
  if (b.payment_method.payment_option !== 'OPEN_INVOICE')
    return refusal(422, 'CONTRACT', 'PAYMENT_METHOD_NOT_ALLOWED', `payment_option ${String(b.payment_method.payment_option)} is not part of the contract`);
  if (b.payment_method.transfer_type === 'SEPA_DIRECT_DEBIT' && !b.payment_details) return missing('payment_details');
  if (b.shop_baskets.length !== 1) return refusal(422, 'CONTRACT', 'WRONG_NUMBER_OF_SHOP_BASKETS', 'The contract allows exactly one shop basket');
  return null;
}

export function ratepayRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const clientId = process.env.RATEPAY_API_KEY || SANDBOX_CLIENT.client_id;
  const clients = new Map([[clientId, { secret: SANDBOX_CLIENT.client_secret, shops: [...SANDBOX_CLIENT.partner_shops] as string[] }]]);
  /** The body each Idempotency-Key was first used with: the same key with another body is 409 CONFLICT (docs: Idempotency). */
  const keyBodies = new Map<string, string>();
  const tokens = new TokenIssuer(Number(process.env.RATEPAY_SANDBOX_TOKEN_TTL_S) || 1800);
  const transactions = new Map<string, Transaction>();
  const api = '/transaction/management';
  const href = (path: string) => `${publicUrl()}/ratepay${api}${path}`;
  const dec = (t: Transaction, n: number) => Number(toDecimalString(n, t.currency as z.infer<typeof Currency>));
  const now = () => new Date().toISOString();
  const touch = (t: Transaction) => {
    const at = Math.max(Date.now(), Date.parse(t.updated_date) + 1);
    t.updated_date = new Date(at).toISOString();
  };

  const links = (t: Transaction) => {
    const at = `/v2/transactions/${t.ratepay_transaction_id}`;
    const each = (kind: string, list: Operation[]) => list.map((o) => ({ href: href(`${at}/${kind}/${o.id}`) }));
    return {
      self: { href: href(at) },
      authorizations: [],
      captures: each('captures', t.captures),
      cancellations: each('cancellations', t.cancellations),
      refunds: each('refunds', t.refunds),
    };
  };
  /** The transaction as Ratepay's read shows it (getTransaction sample): no status, no amounts; a declined one its decline. */
  const view = (t: Transaction) => ({
    _links: links(t),
    authorization_expires: t.authorization_expires,
    created: t.created_date,
    ...(t.decline ? { decline: t.decline } : {}),
    ratepay_transaction_id: t.ratepay_transaction_id,
  });
  /** Without `Prefer: return=representation`: the minimal set (`_links.self`, `ratepay_transaction_id`). */
  const minimal = (t: Transaction) => ({
    _links: { self: { href: href(`/v2/transactions/${t.ratepay_transaction_id}`) } },
    ratepay_transaction_id: t.ratepay_transaction_id,
  });
  /** A capture, cancellation or refund as Ratepay's list sample shows one: {_links, created, ratepay_<kind>_id}. */
  const opView = (t: Transaction, kind: 'capture' | 'cancellation' | 'refund', o: Operation) => ({
    _links: { self: { href: href(`/v2/transactions/${t.ratepay_transaction_id}/${kind}s/${o.id}`) } },
    created: o.created_date,
    [`ratepay_${kind}_id`]: o.id,
  });
  const open = (t: Transaction) => t.authorized - t.captured - t.cancelled;

  /** An optional Idempotency-Key: a repeat gets the first answer, one still running 409 CONFLICT; a 5xx is not kept. */
  const idempotent = async (req: Request, res: Response, scope: string, handle: () => Promise<Answer>) => {
    const key = req.header('idempotency-key');
    if (key !== undefined && (key === '' || key.length > IDEMPOTENCY_KEY_MAX)) {
      const a = declined(refusal(400, 'SYNTAX', 'INVALID_FIELDS', `Idempotency-Key must have 1 to ${IDEMPOTENCY_KEY_MAX} characters`));
      return res.status(a.status).json(a.body);
    }
    const scoped = key ? `ratepay:${res.locals.client}:${scope}:${key}` : null;
    if (scoped) {
      const hash = createHash('sha256')
        .update(`${req.path}|${JSON.stringify(req.body ?? null)}`)
        .digest('hex');
      const first = keyBodies.get(scoped);
      if (first && first !== hash) {
        const a = declined(refusal(409, 'CONFLICT', 'IDEMPOTENCY_KEY_REUSED', 'The Idempotency-Key was used with another request'));
        return res.status(a.status).json(a.body);
      }
      keyBodies.set(scoped, hash);
    }
    const seen = scoped ? idem.get(scoped) : undefined;
    if (seen?.state === 'in_progress') {
      const a = declined(refusal(409, 'CONFLICT', 'IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed'));
      return res.status(a.status).json(a.body);
    }
    if (seen?.state === 'done') return res.status(seen.status).json(seen.body);
    if (scoped) idem.begin(scoped);
    try {
      const out = await handle();
      if (scoped) {
        if (out.status >= 500) idem.abandon(scoped);
        else idem.finish(scoped, out.status, out.body);
      }
      res.status(out.status).json(out.body);
    } catch (err) {
      if (scoped) idem.abandon(scoped);
      throw err;
    }
  };
  /** +flaky / +refund_flaky: HTTP 500 for the first two calls with a key. */
  const flaky = (req: Request, tag: string) => {
    const key = req.header('idempotency-key');
    return !!key && idem.count(`ratepay:${tag}:${key}`) <= 2;
  };
  const serverError: Answer = { status: 500, body: { message: 'Internal Server Error' } };

  router.post('/oauth/token', (req, res) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (checkRules('TokenRequest', b))
      return res
        .status(400)
        .json({ error: 'invalid_request', error_description: 'client_id, client_secret, audience and grant_type client_credentials are required' });
    const client = str(b.client_id) ? clients.get(b.client_id) : undefined;
    if (!client || b.client_secret !== client.secret) return res.status(401).json({ error: 'access_denied', error_description: 'Unauthorized' });
    if (!str(b.audience) || !b.audience.endsWith(api)) {
      return res.status(403).json({ error: 'access_denied', error_description: `Service not enabled within domain: ${String(b.audience)}` });
    }
    res.json({ access_token: tokens.issue(b.client_id as string, b.audience), expires_in: tokens.ttlS, token_type: 'Bearer' });
  });

  router.use(api, (req, res, next) => {
    const m = /^Bearer (.+)$/.exec(req.header('authorization') ?? '');
    const client = m ? tokens.verify(m[1]!) : null;
    if (!client || !clients.has(client))
      return res.status(401).json({ error: 'invalid_token', error_description: 'The access token is missing, invalid or expired' });
    res.locals.client = client;
    next();
  });

  const owned = (req: Request, res: Response) => {
    const t = transactions.get(req.params.id as string);
    return t && t.client_id === res.locals.client ? t : undefined;
  };

  router.post(`${api}/v2/transactions`, (req, res) =>
    idempotent(req, res, 'transactions', async () => {
      const b = (req.body ?? {}) as Record<string, any>;
      const email: string | null = str(b.buyer?.contact?.email) ? b.buyer.contact.email : null;
      const tags = magicTags(email);
      if (tags.has('flaky') && flaky(req, 'flaky')) return serverError;
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const bad = checkAuthorization(b);
      if (bad) return declined(bad);
      const basket = readBasket(b.shop_baskets[0], b.currency, 'shop_baskets[0]', true);
      if (isRefusal(basket)) return declined(basket);
      const client = clients.get(res.locals.client as string)!;
      if (!client.shops.includes(basket.partner_shop_id)) {
        return declined(
          refusal(422, 'UNPROCESSABLE_OPERATION', 'BASKET_WITH_UNKNOWN_SHOP', `partner_shop_id ${basket.partner_shop_id} is not a shop of this partner`),
        );
      }
      if (basket.gross < MIN_BASKET) return declined(refusal(422, 'CONTRACT', 'BASKET_AMOUNT_TOO_LOW', 'The basket amount is below the contract minimum'));
      if (basket.gross > MAX_BASKET) return declined(refusal(422, 'CONTRACT', 'BASKET_AMOUNT_TOO_HIGH', 'The basket amount exceeds the contract maximum'));
      const created = now();
      const t: Transaction = {
        ratepay_transaction_id: newId(),
        client_id: res.locals.client,
        partner_transaction_id: b.partner_transaction_id ?? null,
        partner_shop_id: basket.partner_shop_id,
        shop_transaction_id: basket.shop_transaction_id,
        idempotency_key: req.header('idempotency-key') ?? null,
        status: 'AUTHORIZED',
        currency: b.currency,
        email,
        authorized: basket.gross,
        captured: 0,
        cancelled: 0,
        refunded: 0,
        captures: [],
        cancellations: [],
        refunds: [],
        authorization_expires: new Date(Date.now() + AUTHORIZATION_DAYS * 86_400_000).toISOString(),
        created_date: created,
        updated_date: created,
      };
      transactions.set(t.ratepay_transaction_id, t);
      // A declined transaction keeps its id (Ratepay generates one for declines too).
      // Ratepay's pages list no reasons for BUYER_IDENTITY and RISK_DECISION: the imitation names none.
      const decline: Refusal | null =
        email?.toLowerCase() === 'buyer_identity@ratepay.com'
          ? { status: 422, category: 'BUYER_IDENTITY', reasons: [], message: 'Name, address or date of birth of the buyer could not be verified' }
          : tags.has('decline')
            ? { status: 422, category: 'RISK_DECISION', reasons: [], message: 'The transaction was declined by the risk check' }
            : null;
      if (decline) {
        t.status = 'DECLINED';
        t.decline = { category: decline.category, reasons: decline.reasons };
        return declined(decline, t.ratepay_transaction_id);
      }
      const full = /return=representation/.test(req.header('prefer') ?? '');
      return { status: 201, body: full ? view(t) : minimal(t) };
    }),
  );

  router.get(`${api}/v2/transactions/:id`, (req, res) => {
    const t = owned(req, res);
    const a = t ? { status: 200, body: view(t) } : notFound('TRANSACTION_NOT_FOUND', 'Transaction');
    res.status(a.status).json(a.body);
  });

  /** A follow-up's basket and amount, checked against the transaction. */
  const followUp = (t: Transaction, body: unknown): { gross: number; b: Record<string, unknown> } | Refusal => {
    const syntax = checkRules('FollowUp', body);
    if (syntax) return syntax;
    const b = body as Record<string, unknown>;
    // partner_shop_id is required only for marketplaces (captureTransaction): without one, the authorization's shop.
    const basket = readBasket({ partner_shop_id: t.partner_shop_id, ...b }, t.currency, 'body', false);
    if (isRefusal(basket)) return basket;
    if (basket.partner_shop_id !== t.partner_shop_id) {
      return refusal(422, 'UNPROCESSABLE_OPERATION', 'BASKET_WITH_UNKNOWN_SHOP', "partner_shop_id is not the authorization's shop");
    }
    return { gross: basket.gross, b };
  };
  const operation = (gross: number, b: Record<string, unknown>): Operation => ({
    id: newId(),
    partner_operation_id: typeof b.partner_operation_id === 'string' ? b.partner_operation_id : null,
    gross,
    created_date: now(),
  });

  router.post(`${api}/v2/transactions/:id/captures`, (req, res) =>
    idempotent(req, res, 'captures', async () => {
      const t = owned(req, res);
      if (!t) return notFound('TRANSACTION_NOT_FOUND', 'Transaction');
      if (magicTags(t.email).has('slow')) await sleep(config.sandboxSlowMs);
      if (t.status === 'DECLINED')
        return declined(refusal(422, 'UNPROCESSABLE_OPERATION', 'NOT_ALLOWED_FOR_DECLINED_TRANSACTION', 'The transaction was declined'));
      const f = followUp(t, req.body);
      if (isRefusal(f)) return declined(f);
      if (f.gross > open(t))
        return declined(
          refusal(422, 'UNPROCESSABLE_OPERATION', 'CAPTURE_AMOUNT_TOO_HIGH', `The capture exceeds the open authorized amount (${dec(t, open(t))})`),
        );
      const c: Operation = { ...operation(f.gross, f.b), partner_invoice_id: typeof f.b.partner_invoice_id === 'string' ? f.b.partner_invoice_id : null };
      t.captures.push(c);
      t.captured += f.gross;
      t.status = open(t) === 0 ? 'CAPTURED' : 'PARTIALLY_CAPTURED';
      touch(t);
      return { status: 201, body: opView(t, 'capture', c) };
    }),
  );

  router.post(`${api}/v2/transactions/:id/cancellations`, (req, res) =>
    idempotent(req, res, 'cancellations', async () => {
      const t = owned(req, res);
      if (!t) return notFound('TRANSACTION_NOT_FOUND', 'Transaction');
      if (t.status === 'DECLINED')
        return declined(refusal(422, 'UNPROCESSABLE_OPERATION', 'NOT_ALLOWED_FOR_DECLINED_TRANSACTION', 'The transaction was declined'));
      const f = followUp(t, req.body);
      if (isRefusal(f)) return declined(f);
      if (f.gross > open(t))
        return declined(
          refusal(422, 'UNPROCESSABLE_OPERATION', 'CANCELLATION_AMOUNT_TOO_HIGH', `The cancellation exceeds the open authorized amount (${dec(t, open(t))})`),
        );
      const c = operation(f.gross, f.b);
      t.cancellations.push(c);
      t.cancelled += f.gross;
      if (open(t) === 0) t.status = t.captured > 0 ? 'CAPTURED' : 'CANCELLED';
      touch(t);
      return { status: 201, body: opView(t, 'cancellation', c) };
    }),
  );

  router.post(`${api}/v2/transactions/:id/refunds`, (req, res) =>
    idempotent(req, res, 'refunds', async () => {
      const t = owned(req, res);
      if (!t) return notFound('TRANSACTION_NOT_FOUND', 'Transaction');
      const tags = magicTags(t.email);
      if (tags.has('refund_flaky') && flaky(req, 'refund_flaky')) return serverError;
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const f = followUp(t, req.body);
      if (isRefusal(f)) return declined(f);
      const left = t.captured - t.refunded;
      if (f.gross > left)
        return declined(
          refusal(422, 'UNPROCESSABLE_OPERATION', 'REFUND_AMOUNT_TOO_HIGH', `The refund exceeds the captured amount not yet refunded (${dec(t, left)})`),
        );
      if (tags.has('refund_fail'))
        return declined(refusal(422, 'UNPROCESSABLE_OPERATION', 'REFUND_AMOUNT_TOO_HIGH', 'The refund was refused'), t.ratepay_transaction_id);
      const r = operation(f.gross, f.b);
      t.refunds.push(r);
      t.refunded += f.gross;
      touch(t);
      return { status: 201, body: opView(t, 'refund', r) };
    }),
  );

  for (const kind of ['capture', 'cancellation', 'refund'] as const) {
    const list = (t: Transaction) => (kind === 'capture' ? t.captures : kind === 'refund' ? t.refunds : t.cancellations);
    router.get(`${api}/v2/transactions/:id/${kind}s`, (req, res) => {
      const t = owned(req, res);
      if (!t) return res.status(404).json(notFound('TRANSACTION_NOT_FOUND', 'Transaction').body);
      res.json({
        _embedded: { [`${kind}s`]: list(t).map((o) => opView(t, kind, o)) },
        _links: { self: { href: href(`/v2/transactions/${t.ratepay_transaction_id}/${kind}s`) } },
        ratepay_transaction_id: t.ratepay_transaction_id,
      });
    });
    router.get(`${api}/v2/transactions/:id/${kind}s/:sub`, (req, res) => {
      const t = owned(req, res);
      const o = t ? list(t).find((x) => x.id === req.params.sub) : undefined;
      if (!t || !o) {
        const a = notFound(t ? `${kind.toUpperCase()}_NOT_FOUND` : 'TRANSACTION_NOT_FOUND', t ? kind : 'Transaction');
        return res.status(a.status).json(a.body);
      }
      res.json(opView(t, kind, o));
    });
  }

  // Anything else under the API: Ratepay's 404.
  router.use(api, (_req, res) => res.status(404).json(notFound('RESOURCE_NOT_FOUND', 'Resource').body));

  const reset = () => {
    transactions.clear();
    keyBodies.clear();
    tokens.issued = 0;
  };
  /** Transactions with their captures, cancellations and refunds, and the token key (a token handed out before a
   * restart still works). */
  const saved = keptState({
    transactions: records<Transaction>('ratepay_transaction_id'),
    tokens: z.object({ key: savedKey, issued: counter }).catch({ key: undefined, issued: undefined }),
  });
  const state = {
    save: () => ({ transactions: [...transactions.values()], tokens: tokens.save() }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const t of s.transactions) transactions.set(t.ratepay_transaction_id, t);
      tokens.load(s.tokens);
    },
  };
  return { router, transactions, tokens, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const r = ratepayRouter(idem, publicUrl);
  return {
    router: r.router,
    reset: r.reset,
    state: r.state,
    views: {
      transactions: (q) =>
        [...r.transactions.values()].filter(
          (t) =>
            (!q.idempotency_key || t.idempotency_key === q.idempotency_key) &&
            (!q.partner_transaction_id || t.partner_transaction_id === q.partner_transaction_id),
        ),
      tokens: () => ({ issued: r.tokens.issued }),
    },
  };
};
