// Choosing the connector account for a confirm (ARCHITECTURE.md "Routing"): the request's `connector` list forces;
// else the request's routing algorithm; else the profile's default algorithm; else the first enabled account that
// takes the payment method type. Pure: the accounts and the random draw are given.
import { CAPABILITIES, DEFAULT_ACCOUNT_ID, DEFAULT_CONNECTOR } from '../domain/connectors.ts';
import type { ConnectorName } from './schemas/common.ts';
import type { PaymentMethodsEnabledValue, RoutingAlgorithm } from './schemas/merchant.ts';
import type { RoutingChoice } from './schemas/payment.ts';
import type { z } from 'zod';

export interface RoutableAccount {
  merchant_connector_id: string;
  connector_name: ConnectorName;
  connector_label: string;
  disabled: boolean;
  payment_methods_enabled: PaymentMethodsEnabledValue | null;
}

export interface Route {
  connector: ConnectorName;
  merchant_connector_id: string | null;
  connector_label: string | null;
  /** Why this connector: recorded on the attempt. */
  reason: string;
}
export type RouteRefusal = { refused: string; param: 'connector' | 'routing' };

type Choice = z.infer<typeof RoutingChoice>;

export interface RouteInput {
  forced: ConnectorName[] | null;
  routing: RoutingAlgorithm | null;
  profileRouting: RoutingAlgorithm | null;
  /** The connector accounts of the payment's profile. */
  accounts: RoutableAccount[];
  /** False when the merchant has no connector account at all: the default connector serves it (sandbox). */
  merchantHasAccounts: boolean;
  paymentMethodType: string | null;
  currency: string;
  /** The billing country, if the payment has one. */
  country: string | null;
  random: () => number;
}

/** A merchant without connector accounts: the default connector's default account; any other connector has none. */
const defaultAccountOf = (name: ConnectorName) => (name === DEFAULT_CONNECTOR ? DEFAULT_ACCOUNT_ID : null);

type Accepted = { type: 'enable_only' | 'disable_only'; list: string[] } | null | undefined;
const accepts = (filter: Accepted, value: string | null) => !filter || value === null || (filter.list.includes(value) === (filter.type === 'enable_only'));

/** An enabled account of a built connector whose payment methods take this payment (type, currency, country). */
function takes(a: RoutableAccount, p: Pick<RouteInput, 'paymentMethodType' | 'currency' | 'country'>): boolean {
  if (a.disabled || !CAPABILITIES[a.connector_name].implemented) return false;
  if (!a.payment_methods_enabled) return true;
  return a.payment_methods_enabled.some((m) => !m.payment_method_types || m.payment_method_types.some((t) =>
    (!p.paymentMethodType || t.payment_method_type === p.paymentMethodType)
    && accepts(t.accepted_currencies, p.currency) && accepts(t.accepted_countries, p.country)));
}

export function chooseRoute(input: RouteInput): Route | RouteRefusal {
  const usable = input.accounts.filter((a) => takes(a, input));
  const route = (a: RoutableAccount, reason: string): Route => ({ connector: a.connector_name, merchant_connector_id: a.merchant_connector_id, connector_label: a.connector_label, reason });

  const resolve = (choice: Choice, reason: string): Route | null => {
    const name = typeof choice === 'string' ? choice : choice.connector;
    const id = typeof choice === 'string' ? null : choice.merchant_connector_id ?? null;
    const account = usable.find((a) => a.connector_name === name && (!id || a.merchant_connector_id === id));
    if (account) return route(account, reason);
    if (!input.merchantHasAccounts && !id && CAPABILITIES[name].implemented) return { connector: name, merchant_connector_id: defaultAccountOf(name), connector_label: null, reason };
    return null;
  };

  const run = (alg: RoutingAlgorithm, reason: string): Route | null => {
    const why = `${reason}:${alg.type}`;
    if (alg.type === 'single') return resolve(alg.data, why);
    if (alg.type === 'priority') {
      for (const c of alg.data) {
        const r = resolve(c, why);
        if (r) return r;
      }
      return null;
    }
    // volume_split: a weighted draw among the parts that can take the payment.
    const parts = alg.data.map((d) => ({ route: resolve(d.connector, why), split: d.split })).filter((p) => p.route && p.split > 0);
    const total = parts.reduce((t, p) => t + p.split, 0);
    let draw = input.random() * total;
    for (const p of parts) {
      if ((draw -= p.split) < 0) return p.route;
    }
    return parts.at(-1)?.route ?? null;
  };

  if (input.forced?.length) {
    for (const name of input.forced) {
      const r = resolve(name, 'connector_forced');
      if (r) return r;
    }
    return { refused: `no enabled connector account of ${input.forced.join(', ')} can take this payment`, param: 'connector' };
  }
  if (input.routing) return run(input.routing, 'request_routing') ?? { refused: 'no connector of this routing can take the payment', param: 'routing' };
  const byProfile = input.profileRouting && run(input.profileRouting, 'profile_default');
  if (byProfile) return byProfile;
  if (usable[0]) return route(usable[0], 'first_enabled_account');
  if (!input.merchantHasAccounts) return { connector: DEFAULT_CONNECTOR, merchant_connector_id: DEFAULT_ACCOUNT_ID, connector_label: null, reason: 'default_connector' };
  return { refused: 'no enabled connector account can take this payment', param: 'connector' };
}
