// The service_test provider's API, as the sandbox imitates it (the worker's side: workers/connectors/service_test/):
//   POST /service_test/v1/payments                 create (authorize, or authorize+capture) — Idempotency-Key required
//   GET  /service_test/v1/payments/:id             read the payment (status sync)
//   POST /service_test/v1/payments/:id/captures    capture (partial allowed, several allowed) — Idempotency-Key required
//   POST /service_test/v1/payments/:id/void        release the authorization — Idempotency-Key required
//   GET  /service_test/checkout/:id                the hosted page a redirected customer completes
//   POST /service_test/checkout/:id/(approve|deny)
// Auth: "Authorization: Bearer <SERVICE_TEST_API_KEY>". Amounts in minor units. Errors: {"error": {code, message}}.
import express, { type Request, type Response, type Router } from 'express';
import { randomBytes } from 'node:crypto';
import { config } from '../../../../lib/config.ts';
import { magicTags } from '../../magic.ts';
import { failWith as fail, idempotent as runIdempotent, type IdempotencyStore } from '../../recorder.ts';
import type { Imitation } from '../../provider.ts';

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
  created_at: string;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function serviceTestRouter(idem: IdempotencyStore, publicUrl: () => string) {
  const router: Router = express.Router();
  const payments = new Map<string, SandboxPayment>();
  const apiKey = process.env.SERVICE_TEST_API_KEY || 'sk_sandbox_service_test';

  const approved = (p: SandboxPayment): Status => (p.capture === 'automatic' ? 'captured' : 'authorized');
  const view = (p: SandboxPayment) => {
    if (p.status === 'pending' && p.decide_at && Date.now() >= p.decide_at) {
      p.status = approved(p);
      if (p.status === 'captured') p.captured = p.amount;
    }
    const { idempotency_key: _k, decide_at: _d, first_amount: _f, ...out } = p;
    return out;
  };

  const idempotent = (req: Request, res: Response, scope: string, handle: () => Promise<{ status: number; body: unknown }>) =>
    runIdempotent(idem, req, res, scope, handle);

  router.use('/v1', (req, res, next) => {
    if (req.header('authorization') !== `Bearer ${apiKey}`) return fail(res, 401, 'unauthorized', 'Invalid API key');
    next();
  });

  router.post('/v1/payments', (req, res) => idempotent(req, res, 'payments', async () => {
    const b = req.body ?? {};
    if (!Number.isInteger(b.amount) || b.amount <= 0) return { status: 422, body: { error: { code: 'invalid_request', message: 'amount must be a positive integer' } } };
    if (typeof b.currency !== 'string' || !/^[A-Z]{3}$/.test(b.currency)) return { status: 422, body: { error: { code: 'invalid_request', message: 'currency is invalid' } } };
    const tags = magicTags(b.customer?.email);
    const key = req.header('idempotency-key')!;
    if (tags.has('flaky') && idem.count(`flaky:${key}`) <= 2) {
      return { status: 500, body: { error: { code: 'internal_error', message: 'Temporary failure, please retry' } } };
    }
    if (tags.has('slow')) await sleep(config.sandboxSlowMs);
    const p: SandboxPayment = {
      id: newId('stp'), idempotency_key: key, status: 'authorized', amount: b.amount, first_amount: b.amount, currency: b.currency,
      capture: b.capture === 'manual' ? 'manual' : 'automatic', captured: 0, reference: b.reference ?? null,
      return_url: b.return_url ?? null, created_at: new Date().toISOString(),
    };
    if (tags.has('decline')) {
      p.status = 'declined';
      p.decline = { code: 'credit_declined', message: 'The customer did not pass the credit check' };
    } else if (tags.has('redirect')) {
      p.status = 'requires_action';
      p.redirect_url = `${publicUrl()}/service_test/checkout/${p.id}`;
    } else if (tags.has('review')) {
      p.status = 'pending';
      p.decide_at = Date.now() + config.sandboxReviewMs;
    } else {
      p.status = approved(p);
      if (p.status === 'captured') p.captured = p.amount;
    }
    payments.set(p.id, p);
    return { status: 201, body: view(p) };
  }));

  router.get('/v1/payments/:id', (req, res) => {
    const p = payments.get(req.params.id);
    if (!p) return fail(res, 404, 'not_found', 'No such payment');
    res.json(view(p));
  });

  router.post('/v1/payments/:id/captures', (req, res) => idempotent(req, res, 'captures', async () => {
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
    return { status: 201, body: { id: newId('stc'), payment_id: p.id, status: 'succeeded', amount } };
  }));

  router.post('/v1/payments/:id/void', (req, res) => idempotent(req, res, 'voids', async () => {
    const p = payments.get(req.params.id as string);
    if (!p) return { status: 404, body: { error: { code: 'not_found', message: 'No such payment' } } };
    if (!['authorized', 'requires_action', 'pending'].includes(p.status)) {
      return { status: 422, body: { error: { code: 'not_capturable', message: `Payment is ${p.status}` } } };
    }
    p.status = 'voided';
    return { status: 200, body: view(p) };
  }));

  // The new total is approved up to twice the first authorization, declined above (credit_limit_exceeded).
  router.post('/v1/payments/:id/increments', (req, res) => idempotent(req, res, 'increments', async () => {
    const p = payments.get(req.params.id as string);
    if (!p) return { status: 404, body: { error: { code: 'not_found', message: 'No such payment' } } };
    view(p);
    if (p.status !== 'authorized') return { status: 422, body: { error: { code: 'not_capturable', message: `Payment is ${p.status}` } } };
    const amount = req.body?.amount;
    if (!Number.isInteger(amount) || amount <= p.amount) {
      return { status: 422, body: { error: { code: 'invalid_request', message: 'amount must be an integer above the amount authorized' } } };
    }
    if (amount > 2 * p.first_amount) return { status: 402, body: { error: { code: 'credit_limit_exceeded', message: 'The new amount exceeds the customer\'s limit' } } };
    p.amount = amount;
    return { status: 200, body: view(p) };
  }));

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
    if (!p || p.status !== 'requires_action') return res.status(404).send('Nothing to decide');
    if (req.params.decision === 'approve') {
      p.status = approved(p);
      if (p.status === 'captured') p.captured = p.amount;
    } else {
      p.status = 'declined';
      p.decline = { code: 'credit_declined', message: 'The customer declined at the provider' };
    }
    if (p.return_url) return res.redirect(303, p.return_url);
    res.send(`Payment ${p.status}`);
  });

  return { router, payments, reset: () => payments.clear() };
}

export const imitation: Imitation = (idem, publicUrl) => {
  const st = serviceTestRouter(idem, publicUrl);
  return {
    router: st.router,
    reset: st.reset,
    views: { payments: (q) => [...st.payments.values()].filter((p) => !q.idempotency_key || p.idempotency_key === q.idempotency_key) },
  };
};
