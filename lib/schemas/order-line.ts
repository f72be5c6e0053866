// An order line (spec 2.4), as a request gives it and as it is answered.
import { z } from 'zod';
import { Amount, text } from './common.ts';

const opt = <T extends z.ZodType>(t: T) => t.nullish();

export const OrderLine = z.strictObject({
  product_name: text(255),
  quantity: z.number().int().min(1),
  amount: Amount,
  requires_shipping: opt(z.boolean()),
  product_img_link: opt(text(2048)),
  product_link: opt(text(2048)),
  product_id: opt(text(255)),
  category: opt(text(255)),
  sub_category: opt(text(255)),
  brand: opt(text(255)),
  product_type: opt(text(255)),
  tax_percentage: opt(z.number().min(0)),
  product_tax_code: opt(text(255)),
  tax_amount: opt(Amount),
  total_tax_amount: opt(Amount),
});

/** An order line as answered (spec 2.4): the optional fields a request left out are null. */
export const OrderLineResource = z.object(
  Object.fromEntries(Object.entries(OrderLine.shape).map(([k, t]) => [k, t instanceof z.ZodOptional ? t.unwrap() : t])) as unknown as Record<
    keyof typeof OrderLine.shape,
    z.ZodType
  >,
);
export const ORDER_LINE_FIELDS = Object.keys(OrderLine.shape) as (keyof typeof OrderLine.shape)[];
