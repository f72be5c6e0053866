// Original file: proto/payment_state.proto


export interface InvoiceData {
  'delivery_date'?: (string);
  'due_date'?: (string);
  'invoice_date'?: (string);
  'merchant_invoice_ref'?: (string);
  'null_fields'?: (string)[];
  '_delivery_date'?: "delivery_date";
  '_due_date'?: "due_date";
  '_invoice_date'?: "invoice_date";
  '_merchant_invoice_ref'?: "merchant_invoice_ref";
}

export interface InvoiceData__Output {
  'delivery_date'?: (string);
  'due_date'?: (string);
  'invoice_date'?: (string);
  'merchant_invoice_ref'?: (string);
  'null_fields': (string)[];
  '_delivery_date'?: "delivery_date";
  '_due_date'?: "due_date";
  '_invoice_date'?: "invoice_date";
  '_merchant_invoice_ref'?: "merchant_invoice_ref";
}
