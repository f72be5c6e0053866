// Original file: proto/payment_state.proto

export const Action = {
  ACTION_UNSPECIFIED: 'ACTION_UNSPECIFIED',
  CONFIRM: 'CONFIRM',
  CAPTURE: 'CAPTURE',
  CANCEL: 'CANCEL',
  INCREMENTAL_AUTHORIZATION: 'INCREMENTAL_AUTHORIZATION',
  REFUND: 'REFUND',
  APPROVE: 'APPROVE',
  REJECT: 'REJECT',
  UPDATE: 'UPDATE',
  AUTHENTICATE: 'AUTHENTICATE',
  UPDATE_REFUND: 'UPDATE_REFUND',
} as const;

export type Action =
  | 'ACTION_UNSPECIFIED'
  | 0
  | 'CONFIRM'
  | 1
  | 'CAPTURE'
  | 2
  | 'CANCEL'
  | 3
  | 'INCREMENTAL_AUTHORIZATION'
  | 4
  | 'REFUND'
  | 5
  | 'APPROVE'
  | 6
  | 'REJECT'
  | 7
  | 'UPDATE'
  | 8
  | 'AUTHENTICATE'
  | 9
  | 'UPDATE_REFUND'
  | 10

export type Action__Output = typeof Action[keyof typeof Action]
