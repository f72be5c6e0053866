// Payments: create (4.1), confirm (4.2), capture (4.3), cancel (4.4), incremental authorization (4.5), external 3DS
// authentication (4.6), retrieve, update, lists.
import type { Request, Response, Router } from 'express';
import { errors, found } from '../../lib/errors.ts';
import { idempotencyScope, ids, randomAlnum, requestId } from '../../lib/ids.ts';
import {
  CancelPaymentRequest,
  CapturePaymentRequest,
  ConfirmPaymentRequest,
  CreatePaymentRequest,
  IncrementalAuthorizationRequest,
  ListPaymentsFilter,
  ListPaymentsQuery,
  Payment,
  ReviewDecisionRequest,
  ThreeDsAuthenticationRequest,
  UpdatePaymentRequest,
} from '../../lib/schemas/payment.ts';
import type { ConfirmPaymentBody } from '../../lib/schemas/payment.ts';
import type { Filter } from 'mongodb';
import { z } from 'zod';
import { config } from '../../lib/config.ts';
import { jobFor } from '../../domain/job.ts';
import { createIntent, toResource } from '../../domain/intent.ts';
import type { StoredPayment } from '../../domain/payment.ts';
import { authenticationAnswer } from '../../domain/three-ds.ts';
import { prepareConfirm, runOperation, type Deps } from '../operations.ts';
import { validate } from '../validate.ts';
import { pastCursor, paymentsFilter } from '../list-filters.ts';
import { checkClientConfirmFields, checkClientSecret } from '../client-secret.ts';
import { publishableKey, scopedRouter } from '../scope.ts';
import { currentTiming, timed } from '../server-timing.ts';

const merchantOf = (req: Request) => req.merchantId!;
const RetrieveQuery = z.strictObject({ force_sync: z.enum(['true', 'false']).optional(), client_secret: z.string().max(255).optional() });

/**
 * What the customer's browser is answered (publishable key + client_secret): enough to show the payment and take
 * its next step (next_action, the 3DS authentication's state); never the merchant's data (metadata, connector,
 * customer record, profile, link) nor the ephemeral key or the client_secret itself.
 */
const ClientPayment = Payment.pick({
  payment_id: true,
  status: true,
  amount: true,
  net_amount: true,
  currency: true,
  capture_method: true,
  authentication_type: true,
  external_3ds_authentication_attempted: true,
  external_authentication_details: true,
  payment_method: true,
  payment_method_type: true,
  payment_experience: true,
  allowed_payment_method_types: true,
  description: true,
  return_url: true,
  next_action: true,
  created: true,
  expires_on: true,
  error_code: true,
  error_message: true,
  unified_code: true,
  unified_message: true,
});
export const CLIENT_PAYMENT_FIELDS = Object.keys(ClientPayment.shape) as (keyof z.infer<typeof ClientPayment>)[];

/** The payment as the caller may see it: whole for the secret key, the client fields for the publishable key. */
function answer(req: Request, res: Response, p: StoredPayment) {
  const full = toResource(p);
  if (req.caller?.kind !== 'publishable') return res.json(full);
  res.json(Object.fromEntries(CLIENT_PAYMENT_FIELDS.map((k) => [k, full[k] ?? null])));
}

const pathId = (req: Request) => req.params.payment_id as string;

export function paymentsRouter(deps: Deps): Router {
  /** A confirm with the publishable key: the customer's own fields only, and the payment's live client_secret. */
  async function checkClientConfirm(req: Request, body: ConfirmPaymentBody) {
    checkClientConfirmFields(req, body);
    // One read serves both the client_secret check and routing.
    const payment = found(await deps.store.find(merchantOf(req), pathId(req)), 'Payment', 'payment_id');
    checkClientSecret(req, payment, body.client_secret);
    return prepareConfirm(deps, payment, body);
  }

  // Secret key only, unless a route starts with `publishableKey` (scope.ts).
  const r = scopedRouter();

  r.post('/payments', async (req, res) => {
    const merchantId = merchantOf(req);
    const { customer_acceptance, ...given } = validate(CreatePaymentRequest, req.body);
    const body = customer_acceptance ? { ...given, mandate_data: { ...given.mandate_data, customer_acceptance } } : given;
    // A charge on a mandate or a saved payment method (issue 22) takes its payment method from it.
    if (body.confirm && !body.payment_method && !body.mandate_id && !body.payment_token) throw errors.missing('payment_method');
    const profileId = await deps.setup.profileFor(merchantId, body);
    const intent = createIntent(merchantId, body, {
      now: new Date(),
      paymentId: body.payment_id ?? requestId('pay', 'payment', ids.payment),
      clientSecret: ids.clientSecret,
      newCustomerId: () => `cus_${randomAlnum(20)}`,
      ephemeralSecret: ids.ephemeralSecret,
      knownCustomer: await deps.customers.known(merchantId, body.customer?.id ?? body.customer_id),
      // Only a payment_link payment has one (createIntent reads it only then): no id drawn for the others.
      paymentLink: body.payment_link ? { id: ids.paymentLink(), baseUrl: config.publicBaseUrl } : undefined,
      profileId,
    });
    // A confirm in the same call is checked against the merchant's setup first: a refusal writes nothing. Without
    // one, a `connector` list none of whose connectors can take the payment is refused now, not at the confirm.
    let prepared: Awaited<ReturnType<typeof prepareConfirm>> | undefined;
    try {
      if (!body.confirm && body.connector?.length) await deps.setup.route(intent, { connector: body.connector });
      prepared = body.confirm ? await prepareConfirm(deps, intent, { connector: body.connector }) : undefined;
    } catch (err) {
      // A replay answers what was stored, even if the merchant's setup would refuse the confirm today.
      const existing = await deps.store.find(merchantId, intent.payment_id);
      if (existing?.request_hash === intent.request_hash) return res.json(toResource(existing));
      throw err;
    }
    let payment: StoredPayment;
    let saved: Promise<unknown> = Promise.resolve();
    if (await deps.store.append(intent, { action: 'create', operation_id: null, prev: null })) {
      // Transition 0 is ours: the customer and link records are written beside its projection, never before it (a
      // create that failed before its transition leaves none), and the answer waits for both (a replay writes them
      // again if this request dies first).
      saved = Promise.all([deps.customers.saveFrom(intent), deps.links.saveFrom(intent)]);
      // Awaited before the answer; if the projection fails first, its error is the answer.
      saved.catch(() => undefined);
      await deps.store.project(intent);
      payment = intent;
    } else {
      // payment_id gives idempotency: the same body replays the stored payment, a different one is a conflict.
      const existing = await deps.store.find(merchantId, intent.payment_id);
      if (!existing) throw errors.busy('The payment is being created by another request; retry');
      if (existing.request_hash !== intent.request_hash) {
        throw errors.duplicate('The payment with the specified payment_id already exists in our records', 'payment_id');
      }
      // A replay finishes what the first request may not have (it could have died before saving the customer).
      await Promise.all([deps.customers.saveFrom(existing), deps.links.saveFrom(existing)]);
      // The same request under the same Idempotency-Key, run again after its gateway died: the confirm it asked for
      // goes on under the same operation id (Begin answers the one already started, or starts it).
      if (!(body.confirm && idempotencyScope.getStore())) return res.json(toResource(existing));
      payment = existing;
    }
    // The confirm runs while the customer and link records are written.
    try {
      if (body.confirm) payment = await runOperation(deps, merchantId, payment.payment_id, 'CONFIRM', { connector: body.connector }, prepared);
    } finally {
      await saved;
    }
    res.json(toResource(payment));
  });

  // Lists are declared before /payments/:payment_id so that "list" is never taken for a payment id.
  r.get('/payments/list', async (req, res) => {
    const merchantId = merchantOf(req);
    const q = validate(ListPaymentsQuery, req.query);
    const limit = q.limit ?? 10;
    const created: Record<string, string> = {};
    if (q.created) created.$eq = new Date(q.created).toISOString();
    for (const op of ['lt', 'gt', 'lte', 'gte'] as const) {
      const v = q[`created.${op}`];
      if (v) created[`$${op}`] = new Date(v).toISOString();
    }
    const filter: Record<string, unknown> = {};
    if (q.customer_id) filter.customer_id = q.customer_id;
    if (Object.keys(created).length) filter.created = created;
    // Cursors: newest first, so starting_after pages to older payments and ending_before to newer ones.
    const cursor = q.starting_after ?? q.ending_before;
    if (cursor) {
      const at = await deps.store.find(merchantId, cursor);
      if (!at) throw errors.invalid(q.starting_after ? 'starting_after' : 'ending_before', 'no such payment');
      filter.$and = [pastCursor(at, !!q.starting_after)];
    }
    const { data } = await timed(
      'store',
      deps.store.list(merchantId, filter as Filter<StoredPayment>, { limit, ascending: !!q.ending_before && !q.starting_after }),
    );
    if (q.ending_before && !q.starting_after) data.reverse();
    res.json({ size: data.length, data: data.map(toResource) });
  });

  r.post('/payments/list', async (req, res) => {
    const f = validate(ListPaymentsFilter, req.body);
    const { data, total } = await timed(
      'store',
      deps.store.list(merchantOf(req), paymentsFilter(f), { limit: f.limit ?? 10, skip: f.offset ?? 0, count: true }),
    );
    res.json({ count: data.length, total_count: total, data: data.map(toResource) });
  });

  r.get('/payments/:payment_id', publishableKey, async (req, res) => {
    const { force_sync, client_secret } = validate(RetrieveQuery, req.query);
    const payment = await timed('store', deps.store.find(merchantOf(req), pathId(req)));
    if (!payment) throw errors.notFound('Payment', 'payment_id');
    checkClientSecret(req, payment, client_secret);
    const open = payment.operations.filter((o) => o.open);
    if (force_sync !== 'true' || open.length === 0) return answer(req, res, payment);
    // Ask the provider now about every operation in flight, and answer with what it says (within the usual wait).
    const answers = open.map((op) => deps.waiter.wait(op.operation_id, config.confirmWaitMs).done);
    await Promise.all(open.map((op) => deps.queues.enqueueSync(jobFor(payment, op, 'sync'))));
    const events = await Promise.all(answers);
    for (const e of events) currentTiming()?.addReported(e?.timing);
    const newest = events.reduce<StoredPayment | null>((best, e) => (e && (!best || e.payment.seq > best.seq) ? e.payment : best), null);
    answer(req, res, newest ?? (await deps.store.find(merchantOf(req), pathId(req))) ?? payment);
  });

  r.post('/payments/:payment_id', async (req, res) => {
    const { confirm: _noop, ...body } = validate(UpdatePaymentRequest, req.body);
    if (body.profile_id) await deps.setup.profileFor(merchantOf(req), { profile_id: body.profile_id });
    const payment = await runOperation(deps, merchantOf(req), pathId(req), 'UPDATE', body);
    await deps.customers.saveFrom(payment);
    res.json(toResource(payment));
  });

  // External 3DS authentication (spec 4.6), from the customer's device (publishable key + client_secret) or the
  // merchant's server. Answers the 3DS server's result; the payment goes on to the provider on Y or A.
  r.post('/payments/:payment_id/3ds/authentication', publishableKey, async (req, res) => {
    const { client_secret, ...params } = validate(ThreeDsAuthenticationRequest, req.body);
    checkClientSecret(req, found(await deps.store.find(merchantOf(req), pathId(req)), 'Payment', 'payment_id'), client_secret);
    res.json(authenticationAnswer(await runOperation(deps, merchantOf(req), pathId(req), 'AUTHENTICATE', params)));
  });

  // Operations on a payment: the body is validated here, the transition is decided by payment-state.
  const OPERATIONS = [
    ['confirm', 'CONFIRM', ConfirmPaymentRequest],
    ['capture', 'CAPTURE', CapturePaymentRequest],
    ['cancel', 'CANCEL', CancelPaymentRequest],
    ['incremental_authorization', 'INCREMENTAL_AUTHORIZATION', IncrementalAuthorizationRequest],
    ['approve', 'APPROVE', ReviewDecisionRequest],
    ['reject', 'REJECT', ReviewDecisionRequest],
  ] as const;
  for (const [path, action, schema] of OPERATIONS) {
    const handler = async (req: Request, res: Response) => {
      const body = validate(schema, req.body);
      const prepared = action === 'CONFIRM' ? await checkClientConfirm(req, body as ConfirmPaymentBody) : undefined;
      const payment = await runOperation(deps, merchantOf(req), pathId(req), action, body, prepared);
      if (action === 'CONFIRM') await deps.customers.saveFrom(payment);
      answer(req, res, payment);
    };
    // Of the operations, only the confirm is the customer's.
    if (action === 'CONFIRM') r.post(`/payments/:payment_id/${path}`, publishableKey, handler);
    else r.post(`/payments/:payment_id/${path}`, handler);
  }

  return r;
}
