// Original file: proto/payment_state.proto

import type { Long } from '@grpc/proto-loader';

export interface MerchantPolicy {
  'manual_review'?: (boolean);
  'manual_review_amount_at_least'?: (number | string | Long);
}

export interface MerchantPolicy__Output {
  'manual_review': (boolean);
  'manual_review_amount_at_least': (number);
}
