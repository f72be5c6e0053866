// Mandates and saved payment methods (issue 22), on the leading switch's paths: GET /mandates/{mandate_id},
// GET /customers/{customer_id}/mandates, POST /mandates/revoke/{mandate_id}, GET /customers/{customer_id}/payment_methods.
// The same callers as the Customers API: a merchant's secret key only (keyAuth on /mandates and /customers in app.ts;
// the publishable key is refused, 403 IR_22). Another merchant's mandate or customer is 404 HE_02, like every resource.
import { z } from 'zod';
import type { NextFunction, Request, Response, Router } from 'express';
import { WANTS } from '../auth.ts';
import { errors } from '../../lib/errors.ts';
import type { Customers } from '../customers.ts';
import { mandateResource, notFoundNaming, paymentMethodResource, type Mandates } from '../mandates.ts';
import { scopedRouter } from '../scope.ts';
import { validate } from '../validate.ts';

const merchantOf = (req: Request) => req.merchantId!;

/** Only a merchant's secret key (so a mounting mistake cannot open these routes to another key). */
const secretOnly = (req: Request, _res: Response, next: NextFunction) => {
  if (req.caller?.kind !== 'secret') return next(req.caller ? errors.forbidden() : errors.unauthorized(WANTS.secret));
  next();
};

/** The revoke takes no body: anything in it is refused naming the field (nothing changed). */
const RevokeBody = z.strictObject({});

export function mandatesRouter(mandates: Mandates, customers: Customers): Router {
  const r = scopedRouter();

  /** The customer of the path, or 404 naming customer_id (unknown, deleted, or another merchant's). */
  const customerOf = async (req: Request) => {
    const c = await customers.find(merchantOf(req), req.params.customer_id as string);
    if (!c) throw notFoundNaming('Customer', 'customer_id');
    return c;
  };

  r.get('/mandates/:mandate_id', secretOnly, async (req, res) => {
    const m = await mandates.find(merchantOf(req), req.params.mandate_id as string);
    if (!m) throw notFoundNaming('Mandate', 'mandate_id');
    res.json(mandateResource(m));
  });

  r.post('/mandates/revoke/:mandate_id', secretOnly, async (req, res) => {
    validate(RevokeBody, req.body ?? {});
    const m = await mandates.revoke(merchantOf(req), req.params.mandate_id as string);
    res.json({ mandate_id: m.mandate_id, status: m.status });
  });

  r.get('/customers/:customer_id/mandates', secretOnly, async (req, res) => {
    const c = await customerOf(req);
    res.json((await mandates.store.listMandates(merchantOf(req), c.customer_id)).map(mandateResource));
  });

  r.get('/customers/:customer_id/payment_methods', secretOnly, async (req, res) => {
    const c = await customerOf(req);
    res.json({ customer_payment_methods: (await mandates.store.listPaymentMethods(merchantOf(req), c.customer_id)).map(paymentMethodResource) });
  });

  return r;
}
