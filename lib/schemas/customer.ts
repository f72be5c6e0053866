// Customers API (spec area "customers", shaped like the leading switch's v1 customers): request bodies and the
// Customer resource. A customer belongs to one merchant; customer_id is unique per merchant.
import { z } from 'zod';
import { CustomerId, Email, Metadata, Timestamp, str, text } from './common.ts';
import { MAX_LIST_OFFSET } from './list-limits.ts';
import { Address } from './payment.ts';

const opt = <T extends z.ZodType>(t: T) => t.nullish();

/** The customer's address: the same details as a payment's billing/shipping `address` (city, country, line1…). */
export const CustomerAddress = Address.shape.address.unwrap().unwrap();

const customerFields = {
  name: opt(text(255)),
  email: opt(Email),
  phone: opt(text(255)),
  phone_country_code: opt(str(8)),
  description: opt(text(255)),
  address: opt(CustomerAddress),
  metadata: opt(Metadata),
};

/** POST /customers. Without customer_id the service generates one (`cus_` + 20). */
export const CreateCustomerRequest = z.strictObject({
  customer_id: opt(CustomerId),
  ...customerFields,
});

/** POST /customers/{customer_id}: a field left out is kept; null clears it. */
export const UpdateCustomerRequest = z.strictObject(customerFields);

/** GET /customers/list query: newest first, offset pagination. */
export const ListCustomersQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).max(MAX_LIST_OFFSET).default(0),
});

const n = <T extends z.ZodType>(t: T) => t.nullable();

/** The Customer resource. */
export const Customer = z.object({
  customer_id: z.string(),
  name: n(z.string()),
  email: n(z.string()),
  phone: n(z.string()),
  phone_country_code: n(z.string()),
  description: n(z.string()),
  address: n(CustomerAddress),
  metadata: n(z.record(z.string(), z.unknown())),
  created_at: Timestamp,
});

/** DELETE /customers/{customer_id}. */
export const CustomerDeleted = z.object({
  customer_id: z.string(),
  customer_deleted: z.boolean(),
  address_deleted: z.boolean(),
  payment_methods_deleted: z.boolean(),
});

export type CreateCustomerBody = z.infer<typeof CreateCustomerRequest>;
export type UpdateCustomerBody = z.infer<typeof UpdateCustomerRequest>;
export type ListCustomersParams = z.infer<typeof ListCustomersQuery>;
export type CustomerResource = z.infer<typeof Customer>;
export type CustomerDeletedResource = z.infer<typeof CustomerDeleted>;
export const CUSTOMER_FIELDS = Object.keys(Customer.shape) as (keyof CustomerResource)[];

/** POST /ephemeral_keys (the leading switch's call): a short-lived key for one of the merchant's customers. */
export const CreateEphemeralKeyRequest = z.strictObject({ customer_id: str(255).min(1) });

/** The ephemeral key, answered once with its secret (the shape of a payment's `ephemeral_key`, plus its id). */
export const EphemeralKey = z.object({
  id: z.string(),
  customer_id: z.string(),
  created_at: z.number().int(),
  expires: z.number().int(),
  secret: z.string(),
});
export type EphemeralKey = z.infer<typeof EphemeralKey>;
