// The customer step: the customer object and the deprecated top-level customer fields, kept in step. Pure.
import type { ConfirmPaymentBody, PaymentResource } from '../lib/schemas/payment.ts';

export type CustomerView = NonNullable<PaymentResource['customer']>;
type CustomerFields = Pick<PaymentResource, 'customer' | 'customer_id' | 'email' | 'name' | 'phone' | 'birth_date' | 'gender' | 'locale' | 'ssn'>;

/**
 * The customer object and the deprecated top-level fields, kept in step (spec 2.2). `known` is the customer as
 * stored already (attached by id): what the request leaves out comes from it.
 */
export function customerFields(
  body: Pick<ConfirmPaymentBody, 'customer' | 'customer_id' | 'email' | 'name' | 'phone' | 'phone_country_code'>,
  known: CustomerView | null,
  newId?: () => string,
): Partial<CustomerFields> {
  const c = body.customer ?? {};
  const requestedId = c.id ?? body.customer_id ?? null;
  const base = known && (!requestedId || requestedId === known.id) ? known : null;
  const email = c.email ?? body.email ?? base?.email ?? null;
  const name = c.name ?? body.name ?? base?.name ?? null;
  const phone = c.phone ?? body.phone ?? base?.phone ?? null;
  const id = requestedId ?? base?.id ?? (email || name || phone ? (newId?.() ?? null) : null);
  const personal = Object.fromEntries((['birth_date', 'gender', 'locale', 'ssn'] as const).filter((k) => c[k] != null).map((k) => [k, c[k]]));
  if (!id && !email && !name && !phone) return personal;
  return {
    customer: { id, name, email, phone, phone_country_code: c.phone_country_code ?? body.phone_country_code ?? base?.phone_country_code ?? null },
    customer_id: id,
    email,
    name,
    phone,
    ...personal,
  };
}
