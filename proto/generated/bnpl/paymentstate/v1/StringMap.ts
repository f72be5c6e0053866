// Original file: proto/payment_state.proto


export interface StringMap {
  'items'?: ({[key: string]: string});
}

export interface StringMap__Output {
  'items': ({[key: string]: string});
}
