// Original file: proto/payment_state.proto

import type { AuthenticateParams as _bnpl_paymentstate_v1_AuthenticateParams, AuthenticateParams__Output as _bnpl_paymentstate_v1_AuthenticateParams__Output } from '../../../bnpl/paymentstate/v1/AuthenticateParams.ts';

export interface JobAuthentication {
  'authentication_id'?: (string);
  'request'?: (_bnpl_paymentstate_v1_AuthenticateParams | null);
}

export interface JobAuthentication__Output {
  'authentication_id': (string);
  'request': (_bnpl_paymentstate_v1_AuthenticateParams__Output | null);
}
