// domain/routing.ts, pure: the order of ARCHITECTURE.md (forced connector, request routing, profile default, first
// enabled account that takes the payment, default connector) and each algorithm.
import { describe, expect, it } from 'vitest';
import { chooseRoute, type RoutableAccount, type RouteInput } from './routing.ts';

const account = (id: string, extra: Partial<RoutableAccount> = {}): RoutableAccount => ({
  merchant_connector_id: id,
  connector_name: 'service_test',
  connector_label: id,
  disabled: false,
  payment_methods_enabled: null,
  ...extra,
});
const A = account('mca_a');
const B = account('mca_b');
const input = (extra: Partial<RouteInput> = {}): RouteInput => ({
  forced: null,
  routing: null,
  profileRouting: null,
  accounts: [A, B],
  merchantHasAccounts: true,
  paymentMethodType: null,
  currency: 'EUR',
  country: null,
  customerType: 'B2C',
  random: () => 0.5,
  ...extra,
});
const pick = (id: string) => ({ connector: 'service_test' as const, merchant_connector_id: id });

describe('chooseRoute', () => {
  it('without anything configured: the first enabled account; a merchant without accounts gets the default connector', () => {
    expect(chooseRoute(input())).toMatchObject({ merchant_connector_id: 'mca_a', reason: 'first_enabled_account' });
    expect(chooseRoute(input({ accounts: [{ ...A, disabled: true }, B] }))).toMatchObject({ merchant_connector_id: 'mca_b' });
    expect(chooseRoute(input({ accounts: [], merchantHasAccounts: false }))).toEqual({
      connector: 'service_test',
      merchant_connector_id: 'mca_sandboxdefault000000',
      connector_label: null,
      reason: 'default_connector',
    });
    expect(chooseRoute(input({ accounts: [], merchantHasAccounts: false, forced: ['service_test'] }))).toMatchObject({
      merchant_connector_id: 'mca_sandboxdefault000000',
      reason: 'connector_forced',
    });
    expect(chooseRoute(input({ accounts: [{ ...A, disabled: true }] }))).toMatchObject({ refused: expect.any(String), param: 'connector' });
  });

  it("the connector list forces, before any routing, and keeps the routing's choice of accounts of that connector", () => {
    expect(chooseRoute(input({ forced: ['service_test'], routing: { type: 'single', data: pick('mca_b') } }))).toMatchObject({
      merchant_connector_id: 'mca_b',
      reason: 'connector_forced:single',
    });
    expect(chooseRoute(input({ forced: ['service_test'], profileRouting: { type: 'single', data: pick('mca_b') } }))).toMatchObject({
      merchant_connector_id: 'mca_b',
    });
    // The routing names no account of the forced connector: any usable one of it.
    const mondu = account('mca_m', { connector_name: 'mondu' });
    expect(
      chooseRoute(
        input({
          accounts: [A, B, mondu],
          forced: ['service_test'],
          profileRouting: { type: 'single', data: { connector: 'mondu', merchant_connector_id: 'mca_m' } },
        }),
      ),
    ).toMatchObject({ merchant_connector_id: 'mca_a', reason: 'connector_forced' });
    // The routing's account of it cannot serve: refused, never another account of it the routing does not name.
    expect(
      chooseRoute(input({ accounts: [A, { ...B, disabled: true }], forced: ['service_test'], routing: { type: 'single', data: pick('mca_b') } })),
    ).toMatchObject({ param: 'connector', refused: expect.stringContaining('mca_b (service_test): disabled') });
    expect(chooseRoute(input({ forced: ['billie'] }))).toMatchObject({ param: 'connector', refused: expect.stringContaining('billie: no connector account') });
    // The one forced connector has an account but cannot take a value of the payment: the refusal names that field.
    expect(
      chooseRoute(input({ accounts: [account('mca_bil', { connector_name: 'billie' })], forced: ['billie'], customerType: 'B2B', currency: 'USD' })),
    ).toEqual({ param: 'currency', refused: 'billie does not take USD (it takes EUR)' });
  });

  it('a routing that cannot serve the payment refuses it, saying why; it never falls back to an account it does not name', () => {
    const billie = account('mca_bil', { connector_name: 'billie' });
    // A consumer payment: billie lends to businesses only.
    const r = chooseRoute(
      input({ accounts: [A, billie], profileRouting: { type: 'single', data: { connector: 'billie', merchant_connector_id: 'mca_bil' } } }),
    );
    expect(r).toMatchObject({ param: 'routing', refused: expect.stringContaining('mca_bil (billie): billie does not take B2C customers') });
    expect(
      chooseRoute(
        input({
          accounts: [A, billie],
          customerType: 'B2B',
          profileRouting: { type: 'single', data: { connector: 'billie', merchant_connector_id: 'mca_bil' } },
        }),
      ),
    ).toMatchObject({ merchant_connector_id: 'mca_bil', reason: 'profile_default:single' });
    expect(chooseRoute(input({ routing: { type: 'single', data: pick('mca_zzz') } }))).toMatchObject({
      param: 'routing',
      refused: expect.stringContaining('mca_zzz: no such service_test connector account'),
    });
  });

  it("priority falls back to the next connector when the first cannot take the payment's country, currency or customer type", () => {
    const accounts = [account('mca_bil', { connector_name: 'billie' }), account('mca_rp', { connector_name: 'ratepay' }), A];
    const routing = { type: 'priority' as const, data: [{ connector: 'billie' as const }, { connector: 'ratepay' as const }, pick('mca_a')] };
    expect(chooseRoute(input({ accounts, routing, customerType: 'B2B', country: 'DE' }))).toMatchObject({ merchant_connector_id: 'mca_bil' });
    expect(chooseRoute(input({ accounts, routing, customerType: 'B2C', country: 'DE' }))).toMatchObject({ merchant_connector_id: 'mca_rp' });
    expect(chooseRoute(input({ accounts, routing, customerType: 'B2C', country: 'FR' }))).toMatchObject({ merchant_connector_id: 'mca_a' });
    expect(chooseRoute(input({ accounts, routing, customerType: 'B2B', currency: 'SEK' }))).toMatchObject({ merchant_connector_id: 'mca_a' });
    // A country not given yet does not exclude (the confirm asks for it).
    expect(chooseRoute(input({ accounts, routing, customerType: 'B2B', country: null }))).toMatchObject({ merchant_connector_id: 'mca_bil' });
  });

  it("volume_split over 1,000 payments: each part's share within 5 percentage points of its weight (Math.random)", () => {
    const routing = {
      type: 'volume_split' as const,
      data: [
        { connector: pick('mca_a'), split: 70 },
        { connector: pick('mca_b'), split: 30 },
      ],
    };
    let a = 0;
    for (let i = 0; i < 1_000; i++)
      if ((chooseRoute(input({ routing, random: Math.random })) as { merchant_connector_id: string }).merchant_connector_id === 'mca_a') a += 1;
    // 4.7 standard deviations of the binomial (n 1000, p 0.7): a false failure about once in a million runs.
    expect(Math.abs(a / 1_000 - 0.7)).toBeLessThan(0.05);
  });

  it("the request's routing comes before the profile's default", () => {
    const r = input({ routing: { type: 'single', data: pick('mca_b') }, profileRouting: { type: 'single', data: pick('mca_a') } });
    expect(chooseRoute(r)).toMatchObject({ merchant_connector_id: 'mca_b', reason: 'request_routing:single' });
    expect(chooseRoute(input({ profileRouting: { type: 'single', data: pick('mca_b') } }))).toMatchObject({
      merchant_connector_id: 'mca_b',
      reason: 'profile_default:single',
    });
  });

  it('priority takes the first usable choice and falls back past a disabled one', () => {
    const profileRouting = { type: 'priority' as const, data: [pick('mca_a'), pick('mca_b')] };
    expect(chooseRoute(input({ profileRouting }))).toMatchObject({ merchant_connector_id: 'mca_a' });
    expect(chooseRoute(input({ profileRouting, accounts: [{ ...A, disabled: true }, B] }))).toMatchObject({
      merchant_connector_id: 'mca_b',
      reason: 'profile_default:priority',
    });
  });

  it('volume_split draws by weight among the usable parts', () => {
    const routing = {
      type: 'volume_split' as const,
      data: [
        { connector: pick('mca_a'), split: 70 },
        { connector: pick('mca_b'), split: 30 },
      ],
    };
    expect(chooseRoute(input({ routing, random: () => 0.69 }))).toMatchObject({ merchant_connector_id: 'mca_a' });
    expect(chooseRoute(input({ routing, random: () => 0.7 }))).toMatchObject({ merchant_connector_id: 'mca_b' });
    expect(chooseRoute(input({ routing, random: () => 0.99, accounts: [A, { ...B, disabled: true }] }))).toMatchObject({ merchant_connector_id: 'mca_a' });
  });

  it('accounts take only the payment method types, currencies and countries they enable', () => {
    const invoiceEurDe = account('mca_inv', {
      payment_methods_enabled: [
        {
          payment_method: 'pay_later',
          payment_method_types: [
            {
              payment_method_type: 'invoice',
              accepted_currencies: { type: 'enable_only', list: ['EUR'] },
              accepted_countries: { type: 'disable_only', list: ['AT'] },
            },
          ],
        },
      ],
    });
    const accounts = [invoiceEurDe, B];
    expect(chooseRoute(input({ accounts, paymentMethodType: 'invoice', country: 'DE' }))).toMatchObject({ merchant_connector_id: 'mca_inv' });
    expect(chooseRoute(input({ accounts, paymentMethodType: 'direct_debit' }))).toMatchObject({ merchant_connector_id: 'mca_b' });
    expect(chooseRoute(input({ accounts, paymentMethodType: 'invoice', currency: 'SEK' }))).toMatchObject({ merchant_connector_id: 'mca_b' });
    expect(chooseRoute(input({ accounts, paymentMethodType: 'invoice', country: 'AT' }))).toMatchObject({ merchant_connector_id: 'mca_b' });
  });

  it('without routing, the first account that takes the payment: an account whose connector cannot serve it is passed over', () => {
    expect(chooseRoute(input({ accounts: [account('mca_bil', { connector_name: 'billie' }), B] }))).toMatchObject({
      merchant_connector_id: 'mca_b',
      reason: 'first_enabled_account',
    });
    expect(chooseRoute(input({ accounts: [account('mca_bil', { connector_name: 'billie' })] }))).toMatchObject({
      param: 'connector',
      refused: expect.stringContaining('does not take B2C'),
    });
  });
});
