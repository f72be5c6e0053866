// Payments: create (4.1), confirm (4.2), capture (4.3), cancel (4.4), incremental authorization (4.5), retrieve.
import { Router, type Request } from 'express';
import { errors } from '../../lib/errors.ts';
import { ids, randomAlnum } from '../../lib/ids.ts';
import { CancelPaymentRequest, CapturePaymentRequest, ConfirmPaymentRequest, CreatePaymentRequest, IncrementalAuthorizationRequest } from '../../lib/schemas/payment.ts';
import { createIntent, toResource } from '../../services/payment-state/intent.ts';
import type { StoredPayment } from '../../services/payment-state/state-machine.ts';
import { runOperation, type Deps } from '../operations.ts';
import { validate } from '../validate.ts';

const merchantOf = (req: Request) => req.merchantId!;
const pathId = (req: Request) => req.params.payment_id as string;

export function paymentsRouter(deps: Deps): Router {
  const r = Router();

  r.post('/payments', async (req, res) => {
    const merchantId = merchantOf(req);
    const body = validate(CreatePaymentRequest, req.body);
    if (body.confirm && !body.payment_method) throw errors.missing('payment_method');
    const intent = createIntent(merchantId, body, {
      now: new Date(), paymentId: body.payment_id ?? ids.payment(), clientSecret: ids.clientSecret,
      newCustomerId: () => `cus_${randomAlnum(20)}`, ephemeralSecret: () => `epk_${randomAlnum(32)}`,
    });
    let payment: StoredPayment;
    if (await deps.store.append(intent, { action: 'create', operation_id: null, from: null })) {
      await deps.store.project(intent);
      payment = intent;
    } else {
      // payment_id gives idempotency: the same body replays the stored payment, a different one is a conflict.
      const existing = await deps.store.find(merchantId, intent.payment_id);
      if (!existing) throw errors.busy('The payment is being created by another request; retry');
      if (existing.request_hash !== intent.request_hash) {
        throw errors.duplicate('The payment with the specified payment_id already exists in our records', 'payment_id');
      }
      return res.json(toResource(existing));
    }
    if (body.confirm) payment = await runOperation(deps, merchantId, payment.payment_id, 'CONFIRM', { connector: body.connector });
    res.json(toResource(payment));
  });

  r.get('/payments/:payment_id', async (req, res) => {
    const payment = await deps.store.find(merchantOf(req), pathId(req));
    if (!payment) throw errors.notFound('Payment');
    res.json(toResource(payment));
  });

  r.post('/payments/:payment_id/confirm', async (req, res) => {
    const body = validate(ConfirmPaymentRequest, req.body);
    res.json(toResource(await runOperation(deps, merchantOf(req), pathId(req), 'CONFIRM', body)));
  });

  r.post('/payments/:payment_id/capture', async (req, res) => {
    const body = validate(CapturePaymentRequest, req.body);
    res.json(toResource(await runOperation(deps, merchantOf(req), pathId(req), 'CAPTURE', body)));
  });

  r.post('/payments/:payment_id/cancel', async (req, res) => {
    const body = validate(CancelPaymentRequest, req.body);
    res.json(toResource(await runOperation(deps, merchantOf(req), pathId(req), 'CANCEL', body)));
  });

  r.post('/payments/:payment_id/incremental_authorization', async (req, res) => {
    const body = validate(IncrementalAuthorizationRequest, req.body);
    res.json(toResource(await runOperation(deps, merchantOf(req), pathId(req), 'INCREMENTAL_AUTHORIZATION', body)));
  });

  return r;
}
