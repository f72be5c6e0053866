// Original file: proto/payment_state.proto

import type { Long } from '@grpc/proto-loader';

export interface OrderLine {
  'product_name'?: (string);
  'quantity'?: (number | string | Long);
  'amount'?: (number | string | Long);
  'requires_shipping'?: (boolean);
  'product_img_link'?: (string);
  'product_link'?: (string);
  'product_id'?: (string);
  'category'?: (string);
  'sub_category'?: (string);
  'brand'?: (string);
  'product_type'?: (string);
  'tax_percentage'?: (number | string);
  'product_tax_code'?: (string);
  'tax_amount'?: (number | string | Long);
  'total_tax_amount'?: (number | string | Long);
  'null_fields'?: (string)[];
  '_product_name'?: "product_name";
  '_quantity'?: "quantity";
  '_amount'?: "amount";
  '_requires_shipping'?: "requires_shipping";
  '_product_img_link'?: "product_img_link";
  '_product_link'?: "product_link";
  '_product_id'?: "product_id";
  '_category'?: "category";
  '_sub_category'?: "sub_category";
  '_brand'?: "brand";
  '_product_type'?: "product_type";
  '_tax_percentage'?: "tax_percentage";
  '_product_tax_code'?: "product_tax_code";
  '_tax_amount'?: "tax_amount";
  '_total_tax_amount'?: "total_tax_amount";
}

export interface OrderLine__Output {
  'product_name'?: (string);
  'quantity'?: (number);
  'amount'?: (number);
  'requires_shipping'?: (boolean);
  'product_img_link'?: (string);
  'product_link'?: (string);
  'product_id'?: (string);
  'category'?: (string);
  'sub_category'?: (string);
  'brand'?: (string);
  'product_type'?: (string);
  'tax_percentage'?: (number);
  'product_tax_code'?: (string);
  'tax_amount'?: (number);
  'total_tax_amount'?: (number);
  'null_fields': (string)[];
  '_product_name'?: "product_name";
  '_quantity'?: "quantity";
  '_amount'?: "amount";
  '_requires_shipping'?: "requires_shipping";
  '_product_img_link'?: "product_img_link";
  '_product_link'?: "product_link";
  '_product_id'?: "product_id";
  '_category'?: "category";
  '_sub_category'?: "sub_category";
  '_brand'?: "brand";
  '_product_type'?: "product_type";
  '_tax_percentage'?: "tax_percentage";
  '_product_tax_code'?: "product_tax_code";
  '_tax_amount'?: "tax_amount";
  '_total_tax_amount'?: "total_tax_amount";
}
