// Customers API (spec area "customers", shaped like the leading switch's v1 customers): create, retrieve, list,
// update, delete a merchant's customers with its secret key. keyAuth (secret key only) and the Idempotency-Key
// middleware are mounted on /customers in app.ts.
import type { Request, Router } from 'express';
import { WANTS } from '../auth.ts';
import { errors } from '../../lib/errors.ts';
import { CreateCustomerRequest, ListCustomersQuery, UpdateCustomerRequest, type CustomerDeletedResource } from '../../lib/schemas/customer.ts';
import { customerView, type Customers } from '../customers.ts';
import { validate } from '../validate.ts';
import { scopedRouter } from '../scope.ts';
import type { Mandates } from '../mandates.ts';

const merchantOf = (req: Request) => req.merchantId!;
const pathId = (req: Request) => req.params.customer_id as string;
export function customersRouter(customers: Customers, mandates: Mandates): Router {
  const r = scopedRouter();
  // Only a merchant's secret key reaches these routes (keyAuth without `publishable`); refuse anything else here too,
  // so a mounting mistake cannot open them.
  r.use('/customers', (req, _res, next) => {
    if (req.caller?.kind !== 'secret') return next(req.caller ? errors.forbidden() : errors.unauthorized(WANTS.secret));
    next();
  });

  r.post('/customers', async (req, res) => {
    const body = validate(CreateCustomerRequest, req.body);
    res.json(customerView(await customers.create(merchantOf(req), body)));
  });

  // Declared before /customers/:customer_id so that "list" is never taken for a customer id.
  r.get('/customers/list', async (req, res) => {
    const q = validate(ListCustomersQuery, req.query);
    res.json((await customers.list(merchantOf(req), q)).map(customerView));
  });

  r.get('/customers/:customer_id', async (req, res) => {
    const c = await customers.find(merchantOf(req), pathId(req));
    if (!c) throw errors.notFound('Customer');
    res.json(customerView(c));
  });

  r.post('/customers/:customer_id', async (req, res) => {
    const body = validate(UpdateCustomerRequest, req.body);
    const c = await customers.update(merchantOf(req), pathId(req), body);
    if (!c) throw errors.notFound('Customer');
    res.json(customerView(c));
  });

  r.delete('/customers/:customer_id', async (req, res) => {
    const customerId = pathId(req);
    if (!(await customers.find(merchantOf(req), customerId))) throw errors.notFound('Customer');
    // Before the record goes: a deletion that stops half-way is asked again, finds the customer, and finishes. Its
    // active mandates are revoked (each with its mandate_revoked event), its saved payment methods deleted.
    await mandates.revokeAllOf(merchantOf(req), customerId);
    await mandates.store.deletePaymentMethods(merchantOf(req), customerId);
    if (!(await customers.delete(merchantOf(req), customerId))) throw errors.notFound('Customer');
    const deleted: CustomerDeletedResource = { customer_id: customerId, customer_deleted: true, address_deleted: true, payment_methods_deleted: true };
    res.json(deleted);
  });

  return r;
}
