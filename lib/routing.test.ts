// lib/routing.ts, pure: the order of ARCHITECTURE.md (forced connector, request routing, profile default, first
// enabled account that takes the payment, default connector) and each algorithm.
import { describe, expect, it } from 'vitest';
import { chooseRoute, type RoutableAccount, type RouteInput } from './routing.ts';

const account = (id: string, extra: Partial<RoutableAccount> = {}): RoutableAccount => ({
  merchant_connector_id: id, connector_name: 'service_test', connector_label: id, disabled: false, payment_methods_enabled: null, ...extra,
});
const A = account('mca_a');
const B = account('mca_b');
const input = (extra: Partial<RouteInput> = {}): RouteInput => ({
  forced: null, routing: null, profileRouting: null, accounts: [A, B], merchantHasAccounts: true, paymentMethodType: null,
  currency: 'EUR', country: null, random: () => 0.5, ...extra,
});
const pick = (id: string) => ({ connector: 'service_test' as const, merchant_connector_id: id });

describe('chooseRoute', () => {
  it('without anything configured: the first enabled account; a merchant without accounts gets the default connector', () => {
    expect(chooseRoute(input())).toMatchObject({ merchant_connector_id: 'mca_a', reason: 'first_enabled_account' });
    expect(chooseRoute(input({ accounts: [{ ...A, disabled: true }, B] }))).toMatchObject({ merchant_connector_id: 'mca_b' });
    expect(chooseRoute(input({ accounts: [], merchantHasAccounts: false }))).toEqual({ connector: 'service_test', merchant_connector_id: 'mca_sandboxdefault000000', connector_label: null, reason: 'default_connector' });
    expect(chooseRoute(input({ accounts: [], merchantHasAccounts: false, forced: ['service_test'] }))).toMatchObject({ merchant_connector_id: 'mca_sandboxdefault000000', reason: 'connector_forced' });
    expect(chooseRoute(input({ accounts: [{ ...A, disabled: true }] }))).toMatchObject({ refused: expect.any(String), param: 'connector' });
  });

  it('the connector list forces, before any routing; a connector with no usable account is refused naming connector', () => {
    const r = input({ forced: ['service_test'], routing: { type: 'single', data: pick('mca_b') }, profileRouting: { type: 'single', data: pick('mca_b') } });
    expect(chooseRoute(r)).toMatchObject({ merchant_connector_id: 'mca_a', reason: 'connector_forced' });
    expect(chooseRoute(input({ forced: ['billie'] }))).toMatchObject({ param: 'connector' });
  });

  it('the request\'s routing comes before the profile\'s default', () => {
    const r = input({ routing: { type: 'single', data: pick('mca_b') }, profileRouting: { type: 'single', data: pick('mca_a') } });
    expect(chooseRoute(r)).toMatchObject({ merchant_connector_id: 'mca_b', reason: 'request_routing:single' });
    expect(chooseRoute(input({ profileRouting: { type: 'single', data: pick('mca_b') } }))).toMatchObject({ merchant_connector_id: 'mca_b', reason: 'profile_default:single' });
  });

  it('priority takes the first usable choice and falls back past a disabled one', () => {
    const profileRouting = { type: 'priority' as const, data: [pick('mca_a'), pick('mca_b')] };
    expect(chooseRoute(input({ profileRouting }))).toMatchObject({ merchant_connector_id: 'mca_a' });
    expect(chooseRoute(input({ profileRouting, accounts: [{ ...A, disabled: true }, B] }))).toMatchObject({ merchant_connector_id: 'mca_b', reason: 'profile_default:priority' });
  });

  it('volume_split draws by weight among the usable parts', () => {
    const routing = { type: 'volume_split' as const, data: [{ connector: pick('mca_a'), split: 70 }, { connector: pick('mca_b'), split: 30 }] };
    expect(chooseRoute(input({ routing, random: () => 0.69 }))).toMatchObject({ merchant_connector_id: 'mca_a' });
    expect(chooseRoute(input({ routing, random: () => 0.7 }))).toMatchObject({ merchant_connector_id: 'mca_b' });
    expect(chooseRoute(input({ routing, random: () => 0.99, accounts: [A, { ...B, disabled: true }] }))).toMatchObject({ merchant_connector_id: 'mca_a' });
  });

  it('accounts take only the payment method types, currencies and countries they enable', () => {
    const invoiceEurDe = account('mca_inv', {
      payment_methods_enabled: [{ payment_method: 'pay_later', payment_method_types: [{
        payment_method_type: 'invoice', accepted_currencies: { type: 'enable_only', list: ['EUR'] }, accepted_countries: { type: 'disable_only', list: ['AT'] },
      }] }],
    });
    const accounts = [invoiceEurDe, B];
    expect(chooseRoute(input({ accounts, paymentMethodType: 'invoice', country: 'DE' }))).toMatchObject({ merchant_connector_id: 'mca_inv' });
    expect(chooseRoute(input({ accounts, paymentMethodType: 'direct_debit' }))).toMatchObject({ merchant_connector_id: 'mca_b' });
    expect(chooseRoute(input({ accounts, paymentMethodType: 'invoice', currency: 'SEK' }))).toMatchObject({ merchant_connector_id: 'mca_b' });
    expect(chooseRoute(input({ accounts, paymentMethodType: 'invoice', country: 'AT' }))).toMatchObject({ merchant_connector_id: 'mca_b' });
  });

  it('a connector whose worker is not built is never chosen', () => {
    expect(chooseRoute(input({ accounts: [account('mca_m', { connector_name: 'openbank' }), B] }))).toMatchObject({ merchant_connector_id: 'mca_b' });
  });
});
