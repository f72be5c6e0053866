// The service_test provider's API, as the sandbox imitates it (the worker's side: workers/connectors/service_test/):
//   POST /service_test/v1/payments                 create (authorize, or authorize+capture) — Idempotency-Key required
//   GET  /service_test/v1/payments/:id             read the payment (status sync)
//   POST /service_test/v1/payments/:id/captures    capture (partial allowed, several allowed) — Idempotency-Key required
//   POST /service_test/v1/payments/:id/void        release the authorization — Idempotency-Key required
//   POST /service_test/v1/payments/:id/increments  raise the authorization — Idempotency-Key required
//   POST /service_test/v1/payments/:id/refunds     refund captured money — Idempotency-Key required
//   GET  /service_test/v1/refunds/:id              read a refund (refund sync)
//   GET  /service_test/v1/disputes/:id             read a dispute (raised by the operator calls, disputes.ts)
//   GET  /service_test/checkout/:id                the hosted page a redirected customer completes
//   POST /sandbox/service_test/mandates/:id/revoke (operator) the customer revokes a mandate at the provider
// Mandates (issue 22): a create with `setup_mandate: true` also sets up a mandate (amount 0 allowed: a zero
// authorization) and answers it as `mandate: {id: stm_…, status}`; a create with `mandate: "stm_…"` (and
// `off_session: true`) charges on it with no customer step. Magic amounts of such a recurring charge: 6660 declined
// (`recurring_declined`), 6661 the customer revoked the mandate at the provider just now (422 `mandate_revoked`).
// A charge on a revoked mandate: 422 `mandate_revoked`; on an unknown one: 422 `mandate_not_found`.
//   POST /service_test/checkout/:id/(approve|deny)
// Auth: "Authorization: Bearer <SERVICE_TEST_API_KEY>". Amounts in minor units. Errors: {"error": {code, message}}.
// Later outcomes (a review decided, a checkout completed, a pending refund decided, a dispute) are notified, signed,
// to the payment's webhook_url (../../notifier.ts).
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes } from 'node:crypto';
import { config } from '../../../../lib/config.ts';
import { keptState, records } from '../../kept.ts';
import { magicTags } from '../../magic.ts';
import { Notifier, retryFirstMs, type NotificationType } from '../../notifier.ts';
import { failWith as fail, idempotent as runIdempotent, type IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';
import { laterThan } from './clock.ts';
import { serviceTestDisputes } from './disputes.ts';
import { setTimeout as sleep } from 'node:timers/promises';

type Status = 'authorized' | 'captured' | 'declined' | 'requires_action' | 'pending' | 'voided';
interface SandboxPayment {
  id: string;
  idempotency_key: string;
  status: Status;
  amount: number;
  /** The amount first authorized; increments are approved up to twice it. */
  first_amount: number;
  currency: string;
  capture: 'manual' | 'automatic';
  captured: number;
  reference: string | null;
  return_url: string | null;
  redirect_url?: string;
  decline?: { code: string; message: string };
  decide_at?: number;
  /** The mandate this payment set up or was charged on. */
  mandate?: { id: string; status: 'active' | 'revoked' };
  /** The customer's email, whose tags also steer the payment's refunds. */
  email: string | null;
  /** Where the provider notifies the merchant about this payment, its refunds and disputes. */
  webhook_url: string | null;
  /** What it signs those notifications with: the merchant's connector account's own secret, given with the payment. */
  webhook_secret: string | null;
  created_at: string;
  updated_at: string;
}

type RefundStatus = 'pending' | 'succeeded' | 'failed';
interface SandboxRefund {
  id: string;
  idempotency_key: string;
  payment_id: string;
  amount: number;
  currency: string;
  reference: string;
  reason: string | null;
  status: RefundStatus;
  failure?: { code: string; message: string };
  decide_at?: number;
  created_at: string;
  updated_at: string;
}

interface SandboxMandate {
  id: string;
  status: 'active' | 'revoked';
  currency: string;
  /** The payment that set it up. */
  payment_id: string;
  created_at: string;
  revoked_at: string | null;
}

/** Magic amounts of a recurring charge (a create with `mandate`). */
export const RECURRING_DECLINED_AMOUNT = 6660;
export const MANDATE_REVOKED_AMOUNT = 6661;

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

const invalid = (message: string) => ({ status: 422, body: { error: { code: 'invalid_request', message } } });
const isHttpUrl = (s: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol);
  } catch {
    return false;
  }
};

export function serviceTestRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const payments = new Map<string, SandboxPayment>();
  const refunds = new Map<string, SandboxRefund>();
  /** Each payment's refunds, so what is left is counted without a scan of every refund (the benchmark makes many). */
  const refundsOf = new Map<string, SandboxRefund[]>();
  const mandates = new Map<string, SandboxMandate>();
  const apiKey = process.env.SERVICE_TEST_API_KEY || 'sk_sandbox_service_test';
  const notifier = new Notifier({ firstRetryMs: retryFirstMs() });
  const timers = new Set<NodeJS.Timeout>();
  /** Runs `fn` in `ms` (a provider deciding later); reset() cancels it. */
  const after = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    t.unref();
    timers.add(t);
  };

  const approved = (p: SandboxPayment): Status => (p.capture === 'automatic' ? 'captured' : 'authorized');
  const approve = (p: SandboxPayment) => {
    p.status = approved(p);
    if (p.status === 'captured') p.captured = p.amount;
  };
  const touch = (o: { updated_at: string }) => {
    o.updated_at = laterThan(o.updated_at);
  };
  const paymentObject = (p: SandboxPayment) => {
    const { idempotency_key: _k, decide_at: _d, first_amount: _f, email: _e, webhook_url: _w, webhook_secret: _s, ...out } = p;
    return out;
  };
  const refundObject = (r: SandboxRefund) => {
    const { idempotency_key: _k, decide_at: _d, ...out } = r;
    return out;
  };
  const notify = (p: SandboxPayment | undefined, type: NotificationType, objectId: string, data: unknown) => notifier.send(p, type, objectId, data);

  /** A `+review` payment is decided at decide_at: by its timer, or by the first read after it (whichever comes first). */
  const decideReview = (p: SandboxPayment, force = false) => {
    if (p.status !== 'pending' || p.decide_at === undefined || (!force && Date.now() < p.decide_at)) return;
    approve(p);
    delete p.decide_at;
    touch(p);
    notify(p, 'payment.updated', p.id, paymentObject(p));
  };
  const view = (p: SandboxPayment) => {
    decideReview(p);
    return paymentObject(p);
  };
  const decideRefund = (r: SandboxRefund, force = false) => {
    if (r.status !== 'pending' || r.decide_at === undefined || (!force && Date.now() < r.decide_at)) return;
    r.status = 'succeeded';
    delete r.decide_at;
    touch(r);
    notify(payments.get(r.payment_id), 'refund.updated', r.id, refundObject(r));
  };
  const refundView = (r: SandboxRefund) => {
    decideRefund(r);
    return refundObject(r);
  };
  /** Captured money not yet given back: refunds pending or succeeded count, failed ones do not. */
  const refundable = (p: SandboxPayment) => p.captured - (refundsOf.get(p.id) ?? []).filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);

  const disputes = serviceTestDisputes({ payment: (id) => payments.get(id), notify: (to, type, id, data) => notifier.send(to, type, id, data) });

  const idempotent = (req: Request, res: Response, scope: string, handle: () => Promise<{ status: number; body: unknown }>) =>
    runIdempotent(idem, req, res, scope, handle);

  router.use('/v1', (req, res, next) => {
    if (req.header('authorization') !== `Bearer ${apiKey}`) return fail(res, 401, 'unauthorized', 'Invalid API key');
    next();
  });

  router.post('/v1/payments', (req, res) =>
    idempotent(req, res, 'payments', async () => {
      const b = req.body ?? {};
      const setupMandate = b.setup_mandate === true;
      const charged = typeof b.mandate === 'string' ? b.mandate : null;
      if (b.setup_mandate != null && typeof b.setup_mandate !== 'boolean') return invalid('setup_mandate must be a boolean');
      if (b.mandate != null && typeof b.mandate !== 'string') return invalid('mandate must be a mandate id (stm_…)');
      if (setupMandate && charged) return invalid('setup_mandate and mandate exclude each other');
      // A zero authorization only sets up a mandate.
      if (!Number.isInteger(b.amount) || b.amount < (setupMandate ? 0 : 1)) return invalid('amount must be a positive integer');
      if (typeof b.currency !== 'string' || !/^[A-Z]{3}$/.test(b.currency)) return invalid('currency is invalid');
      if (b.webhook_url != null && (typeof b.webhook_url !== 'string' || !isHttpUrl(b.webhook_url))) return invalid('webhook_url must be an http(s) URL');
      if (b.webhook_secret != null && (typeof b.webhook_secret !== 'string' || b.webhook_secret.length < 16 || b.webhook_secret.length > 256))
        return invalid('webhook_secret must be a string of 16 to 256 characters');
      const email = typeof b.customer?.email === 'string' ? b.customer.email : null;
      const tags = magicTags(email);
      const key = req.header('idempotency-key')!;
      if (tags.has('flaky') && idem.count(`flaky:${key}`) <= 2) {
        return { status: 500, body: { error: { code: 'internal_error', message: 'Temporary failure, please retry' } } };
      }
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      const now = new Date().toISOString();
      const held = charged ? mandates.get(charged) : undefined;
      if (charged) {
        if (!held) return { status: 422, body: { error: { code: 'mandate_not_found', message: 'No such mandate' } } };
        if (b.amount === MANDATE_REVOKED_AMOUNT && held.status === 'active') Object.assign(held, { status: 'revoked', revoked_at: now });
        if (held.status === 'revoked') return { status: 422, body: { error: { code: 'mandate_revoked', message: 'The customer revoked this mandate' } } };
        if (held.currency !== b.currency) return invalid(`currency must be the mandate's (${held.currency})`);
      }
      const p: SandboxPayment = {
        id: newId('stp'),
        idempotency_key: key,
        status: 'authorized',
        amount: b.amount,
        first_amount: b.amount,
        currency: b.currency,
        capture: b.capture === 'manual' ? 'manual' : 'automatic',
        captured: 0,
        reference: b.reference ?? null,
        return_url: b.return_url ?? null,
        email,
        webhook_url: b.webhook_url ?? null,
        webhook_secret: b.webhook_secret ?? null,
        created_at: now,
        updated_at: now,
      };
      if (setupMandate) {
        const m: SandboxMandate = { id: newId('stm'), status: 'active', currency: p.currency, payment_id: p.id, created_at: now, revoked_at: null };
        mandates.set(m.id, m);
        p.mandate = { id: m.id, status: m.status };
      }
      if (held) {
        // Off-session: no customer step (redirect and review do not apply), declined only by its magic amount.
        p.mandate = { id: held.id, status: held.status };
        if (b.amount === RECURRING_DECLINED_AMOUNT || tags.has('decline')) {
          p.status = 'declined';
          p.decline = { code: 'recurring_declined', message: 'The provider declined the recurring charge' };
        } else approve(p);
      } else if (tags.has('decline')) {
        p.status = 'declined';
        p.decline = { code: 'credit_declined', message: 'The customer did not pass the credit check' };
      } else if (tags.has('redirect')) {
        p.status = 'requires_action';
        p.redirect_url = `${publicUrl()}/service_test/checkout/${p.id}`;
      } else if (tags.has('review')) {
        p.status = 'pending';
        p.decide_at = Date.now() + config.sandboxReviewMs;
        after(config.sandboxReviewMs, () => decideReview(p, true));
      } else {
        approve(p);
      }
      payments.set(p.id, p);
      return { status: 201, body: view(p) };
    }),
  );

  router.get('/v1/payments/:id', (req, res) => {
    const p = payments.get(req.params.id);
    if (!p) return fail(res, 404, 'not_found', 'No such payment');
    res.json(view(p));
  });

  router.post('/v1/payments/:id/captures', (req, res) =>
    idempotent(req, res, 'captures', async () => {
      const p = payments.get(req.params.id as string);
      if (!p) return { status: 404, body: { error: { code: 'not_found', message: 'No such payment' } } };
      view(p);
      if (p.status !== 'authorized') return { status: 422, body: { error: { code: 'not_capturable', message: `Payment is ${p.status}` } } };
      const amount = req.body?.amount ?? p.amount - p.captured;
      if (!Number.isInteger(amount) || amount <= 0 || amount > p.amount - p.captured) {
        return { status: 422, body: { error: { code: 'amount_exceeds_authorization', message: 'Capture amount exceeds what is left of the authorization' } } };
      }
      p.captured += amount;
      if (p.captured === p.amount) p.status = 'captured';
      touch(p);
      return { status: 201, body: { id: newId('stc'), payment_id: p.id, status: 'succeeded', amount } };
    }),
  );

  router.post('/v1/payments/:id/void', (req, res) =>
    idempotent(req, res, 'voids', async () => {
      const p = payments.get(req.params.id as string);
      if (!p) return { status: 404, body: { error: { code: 'not_found', message: 'No such payment' } } };
      if (!['authorized', 'requires_action', 'pending'].includes(p.status)) {
        return { status: 422, body: { error: { code: 'not_capturable', message: `Payment is ${p.status}` } } };
      }
      p.status = 'voided';
      touch(p);
      return { status: 200, body: view(p) };
    }),
  );

  // The new total is approved up to twice the first authorization, declined above (credit_limit_exceeded).
  router.post('/v1/payments/:id/increments', (req, res) =>
    idempotent(req, res, 'increments', async () => {
      const p = payments.get(req.params.id as string);
      if (!p) return { status: 404, body: { error: { code: 'not_found', message: 'No such payment' } } };
      view(p);
      if (p.status !== 'authorized') return { status: 422, body: { error: { code: 'not_capturable', message: `Payment is ${p.status}` } } };
      const amount = req.body?.amount;
      if (!Number.isInteger(amount) || amount <= p.amount) {
        return { status: 422, body: { error: { code: 'invalid_request', message: 'amount must be an integer above the amount authorized' } } };
      }
      if (amount > 2 * p.first_amount)
        return { status: 402, body: { error: { code: 'credit_limit_exceeded', message: "The new amount exceeds the customer's limit" } } };
      p.amount = amount;
      touch(p);
      return { status: 200, body: view(p) };
    }),
  );

  // Magic tags come from the payment's customer email: +refund_fail (declined), +refund_pending (decided after
  // SANDBOX_REVIEW_MS, notified), +refund_flaky (500 twice per Idempotency-Key), +slow (answers after SANDBOX_SLOW_MS).
  router.post('/v1/payments/:id/refunds', (req, res) =>
    idempotent(req, res, 'refunds', async () => {
      const p = payments.get(req.params.id as string);
      if (!p) return { status: 404, body: { error: { code: 'not_found', message: 'No such payment' } } };
      const b = req.body ?? {};
      if (b.amount !== undefined && !Number.isInteger(b.amount)) return invalid('amount must be an integer (minor units)');
      if (typeof b.reference !== 'string' || b.reference === '') return invalid("reference is required (the merchant's refund id)");
      if (b.reason != null && typeof b.reason !== 'string') return invalid('reason must be a string');
      const tags = magicTags(p.email);
      const key = req.header('idempotency-key')!;
      if (tags.has('refund_flaky') && idem.count(`refund_flaky:${key}`) <= 2) {
        return { status: 500, body: { error: { code: 'internal_error', message: 'Temporary failure, please retry' } } };
      }
      if (tags.has('slow')) await sleep(config.sandboxSlowMs);
      view(p);
      const left = refundable(p);
      const amount: number = b.amount ?? left;
      if (amount <= 0 || amount > left) {
        return {
          status: 422,
          body: { error: { code: 'amount_exceeds_captured', message: `Refund amount must be from 1 to what is left of the captured amount (${left})` } },
        };
      }
      const now = new Date().toISOString();
      const r: SandboxRefund = {
        id: newId('str'),
        idempotency_key: key,
        payment_id: p.id,
        amount,
        currency: p.currency,
        reference: b.reference,
        reason: b.reason ?? null,
        status: 'succeeded',
        created_at: now,
        updated_at: now,
      };
      if (tags.has('refund_fail')) {
        r.status = 'failed';
        r.failure = { code: 'refund_declined', message: 'The provider declined the refund' };
      } else if (tags.has('refund_pending')) {
        r.status = 'pending';
        r.decide_at = Date.now() + config.sandboxReviewMs;
        after(config.sandboxReviewMs, () => decideRefund(r, true));
      }
      refunds.set(r.id, r);
      refundsOf.set(p.id, [...(refundsOf.get(p.id) ?? []), r]);
      return { status: 201, body: refundView(r) };
    }),
  );

  router.get('/v1/refunds/:id', (req, res) => {
    const r = refunds.get(req.params.id);
    if (!r) return fail(res, 404, 'not_found', 'No such refund');
    res.json(refundView(r));
  });

  router.get('/v1/disputes/:id', (req, res) => {
    const d = disputes.disputes.get(req.params.id);
    if (!d) return fail(res, 404, 'not_found', 'No such dispute');
    res.json(disputes.view(d));
  });

  router.get('/checkout/:id', (req, res) => {
    const p = payments.get(req.params.id);
    if (!p) return res.status(404).send('No such payment');
    res.type('html').send(`<!doctype html><title>service_test checkout</title>
<h1>Pay ${p.amount} ${p.currency} later</h1>
<form method="post" action="/service_test/checkout/${p.id}/approve"><button>Approve</button></form>
<form method="post" action="/service_test/checkout/${p.id}/deny"><button>Deny</button></form>`);
  });

  router.post('/checkout/:id/:decision', (req, res) => {
    const p = payments.get(req.params.id);
    if (p?.status !== 'requires_action') return res.status(404).send('Nothing to decide');
    if (req.params.decision === 'approve') {
      approve(p);
    } else {
      p.status = 'declined';
      p.decline = { code: 'credit_declined', message: 'The customer declined at the provider' };
    }
    touch(p);
    notify(p, 'payment.updated', p.id, paymentObject(p));
    if (p.return_url) return res.redirect(303, p.return_url);
    res.send(`Payment ${p.status}`);
  });

  const reset = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    payments.clear();
    refunds.clear();
    mandates.clear();
    refundsOf.clear();
    disputes.reset();
    notifier.reset();
  };
  /** Payments and refunds (disputes and pending notifications are not kept); decisions due are taken on the next read. */
  const saved = keptState({ payments: records<SandboxPayment>('id'), refunds: records<SandboxRefund>('id'), mandates: records<SandboxMandate>('id') });
  const state = {
    save: () => ({ payments: [...payments.values()], refunds: [...refunds.values()], mandates: [...mandates.values()] }),
    load: (raw: unknown) => {
      reset();
      const s = saved.parse(raw);
      for (const p of s.payments) payments.set(p.id, p);
      for (const m of s.mandates) mandates.set(m.id, m);
      for (const r of s.refunds) {
        refunds.set(r.id, r);
        refundsOf.set(r.payment_id, [...(refundsOf.get(r.payment_id) ?? []), r]);
      }
    },
  };
  // The operator's calls: disputes, and a customer revoking a mandate at the provider (issue 22).
  const operator: Router = express.Router();
  operator.use(disputes.operator);
  operator.post('/service_test/mandates/:id/revoke', (req, res) => {
    const m = mandates.get(req.params.id);
    if (!m) return fail(res, 404, 'not_found', 'No such mandate');
    if (m.status === 'active') Object.assign(m, { status: 'revoked', revoked_at: new Date().toISOString() });
    res.json(m);
  });
  return { router, operator, payments, refunds, mandates, disputes: disputes.disputes, notifier, reset, state };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const st = serviceTestRouter(idem, publicUrl);
  return {
    router: st.router,
    operator: st.operator,
    reset: st.reset,
    state: st.state,
    views: {
      // Never the merchant's notification secret.
      payments: (q) =>
        [...st.payments.values()].filter((p) => !q.idempotency_key || p.idempotency_key === q.idempotency_key).map(({ webhook_secret: _s, ...p }) => p),
      refunds: (q) =>
        [...st.refunds.values()].filter(
          (r) => (!q.idempotency_key || r.idempotency_key === q.idempotency_key) && (!q.payment_id || r.payment_id === q.payment_id),
        ),
      disputes: (q) => [...st.disputes.values()].filter((d) => !q.payment_id || d.payment_id === q.payment_id),
      mandates: (q) => [...st.mandates.values()].filter((m) => !q.id || m.id === q.id),
      notifications: (q) => st.notifier.deliveries.filter((d) => (!q.object_id || d.object_id === q.object_id) && (!q.type || d.type === q.type)),
    },
  };
};
