// A micro-benchmark of the payment-state contract's codec (issue 24): a rich confirm's BeginRequest from the
// gateway's validated body to payment-state's parsed params, in one process: beginParams, the method's protobuf
// serializer and deserializer (proto-loader, as the runtime), paramsOfBegin, then the schema's parse payment-state
// runs anyway. Prints operations per second, the median of 5 rounds. Not an npm script: run it by hand,
//   node bench/proto-codec.ts [--seconds 2]
import { parseArgs } from 'node:util';
import type { MethodDefinition } from '@grpc/proto-loader';
import { beginParams, paramsOfBegin } from '../adapters/begin-params.ts';
import { paymentStateDefinition } from '../lib/grpc.ts';
import { ConfirmPaymentRequest } from '../lib/schemas/payment.ts';
import type { BeginRequest, BeginRequest__Output } from '../proto/generated/bnpl/paymentstate/v1/BeginRequest.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' } } });
const seconds = Number(values.seconds);

const address = {
  address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', zip: '10115', country: 'DE', first_name: 'Erika', last_name: 'Mustermann' },
  phone: { number: '1701234567', country_code: '+49' },
  email: 'erika@example.com',
};
const line = (i: number) => ({
  product_name: `Item ${i}`,
  quantity: 1,
  amount: 2500,
  product_id: `sku-${i}`,
  category: 'shoes',
  tax_percentage: 19,
  tax_amount: 399,
  requires_shipping: true,
});
/** A confirm as a shop sends it: customer, both addresses, four order lines, metadata, browser, routing. */
const body = ConfirmPaymentRequest.parse({
  amount: 10000,
  currency: 'EUR',
  capture_method: 'automatic',
  confirm: true,
  payment_method: 'pay_later',
  payment_method_type: 'invoice',
  payment_method_data: { pay_later: { invoice: {} }, billing: address },
  customer: { id: 'cus_0123456789', name: 'Erika Mustermann', email: 'erika@example.com', phone: '1701234567', phone_country_code: '+49' },
  billing: address,
  shipping: address,
  order_details: [line(1), line(2), line(3), line(4)],
  metadata: { order_ref: 'A-1001', buyer_type: 'private', birth_date: '1980-01-01', basket: { items: 4, gift: false } },
  browser_info: { color_depth: 24, java_enabled: false, language: 'de-DE', screen_height: 1080, screen_width: 1920, time_zone: -60, user_agent: 'Mozilla/5.0' },
  routing: { type: 'priority', data: ['payla', { connector: 'ratepay', merchant_connector_id: 'mca_1' }] },
  return_url: 'https://shop.example/return',
  description: null,
  merchant_order_reference_id: 'A-1001',
});

const PKG = 'bnpl.paymentstate.v1';
const begin = (paymentStateDefinition()[`${PKG}.PaymentState`] as Record<string, MethodDefinition<BeginRequest, object, BeginRequest__Output, object>>).Begin;
const request: BeginRequest = { merchant_id: 'mer_1', payment_id: 'pay_01234567890123456789012345', action: 'CONFIRM', not_after_ms: Date.now() };

const cases: Record<string, () => unknown> = {
  'encode+decode': () => paramsOfBegin(begin.requestDeserialize(begin.requestSerialize({ ...request, ...beginParams('CONFIRM', body) }))),
  'encode+decode+parse': () =>
    ConfirmPaymentRequest.parse(paramsOfBegin(begin.requestDeserialize(begin.requestSerialize({ ...request, ...beginParams('CONFIRM', body) })))),
};

console.log(`request: ${begin.requestSerialize({ ...request, ...beginParams('CONFIRM', body) }).length} bytes`);
for (const [name, fn] of Object.entries(cases)) {
  for (let i = 0; i < 2000; i++) fn(); // warm-up
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    let n = 0;
    const start = process.hrtime.bigint();
    const end = start + BigInt(Math.round((seconds * 1e9) / 5));
    let now = start;
    while (now < end) {
      for (let i = 0; i < 100; i++) fn();
      n += 100;
      now = process.hrtime.bigint();
    }
    rates.push(n / (Number(now - start) / 1e9));
  }
  rates.sort((a, b) => a - b);
  console.log(`${name}: ${Math.round(rates[2]).toLocaleString('en')} ops/s (min ${Math.round(rates[0])}, max ${Math.round(rates[4])})`);
}
