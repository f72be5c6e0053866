// Choosing the connector account for a confirm (ARCHITECTURE.md "Routing"): the request's `connector` list forces;
// else the request's routing algorithm; else the profile's default algorithm; else the first enabled account that
// takes the payment. An account takes a payment when it is enabled, its payment_methods_enabled take it and its
// connector serves the payment's currency, billing country and customer type. Pure: the accounts and the random draw
// are given.
import { mandateRefusal, manifestOf, servingRefusal } from './capabilities.ts';
import { capabilities, DEFAULT_ACCOUNT_ID, DEFAULT_CONNECTOR } from './connectors.ts';
import type { ConnectorName } from '../lib/schemas/common.ts';
import type { PaymentMethodsEnabledValue, RoutingAlgorithm } from '../lib/schemas/merchant.ts';
import type { RoutingChoice } from '../lib/schemas/payment.ts';
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
/** The field refused: connector or routing, or the payment's field a forced connector cannot take (currency, ...). */
export type RouteRefusal = { refused: string; param: string };

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
  /** B2B when the payment's metadata.buyer_type says business (domain/capabilities.ts customerType). */
  customerType: 'B2B' | 'B2C';
  /** The mandate the payment asks for (domain/mandates.ts mandateAsked): only a connector that keeps one takes it. */
  mandate?: { kind: 'new' | 'setup' | 'recurring'; field: string } | null;
  random: () => number;
}

/** A merchant without connector accounts: the default connector's default account; any other connector has none. */
const defaultAccountOf = (name: ConnectorName) => (name === DEFAULT_CONNECTOR ? DEFAULT_ACCOUNT_ID : null);

type Accepted = { type: 'enable_only' | 'disable_only'; list: string[] } | null | undefined;
const accepts = (filter: Accepted, value: string | null) => !filter || value === null || filter.list.includes(value) === (filter.type === 'enable_only');

type Payment = Pick<RouteInput, 'paymentMethodType' | 'currency' | 'country' | 'customerType' | 'mandate'>;

/** The connector's capabilities that exclude this payment (currency, country, customer type); a country not known yet does not. */
function capabilityRefusal(name: ConnectorName, p: Payment): { message: string; param: string } | null {
  const r = servingRefusal(manifestOf(name), { currency: p.currency, country: p.country, customer: p.customerType });
  if (r && r.code !== 'IR_04') return { message: r.message, param: r.param ?? 'connector' };
  const m = p.mandate ? mandateRefusal(manifestOf(name), { payment_method_type: p.paymentMethodType }, p.mandate) : null;
  return m ? { message: m.message, param: m.param ?? 'connector' } : null;
}

/** Why the connector cannot serve this payment, or null. */
function connectorCannot(name: ConnectorName, p: Payment): string | null {
  if (!capabilities(name).implemented) return `${name} is not enabled`;
  return capabilityRefusal(name, p)?.message ?? null;
}

/** Why the account cannot take this payment (disabled, its connector, its payment_methods_enabled), or null. */
function accountCannot(a: RoutableAccount, p: Payment): string | null {
  if (a.disabled) return 'disabled';
  const connector = connectorCannot(a.connector_name, p);
  if (connector) return connector;
  if (!a.payment_methods_enabled) return null;
  const takes = a.payment_methods_enabled.some(
    (m) =>
      !m.payment_method_types ||
      m.payment_method_types.some(
        (t) =>
          (!p.paymentMethodType || t.payment_method_type === p.paymentMethodType) &&
          accepts(t.accepted_currencies, p.currency) &&
          accepts(t.accepted_countries, p.country),
      ),
  );
  return takes ? null : 'its payment_methods_enabled do not take this payment';
}

const connectorOf = (c: Choice): ConnectorName => (typeof c === 'string' ? c : c.connector);

/** The algorithm with only its choices of `name`, or null when it names none. */
function restrictTo(alg: RoutingAlgorithm, name: ConnectorName): RoutingAlgorithm | null {
  if (alg.type === 'single') return connectorOf(alg.data) === name ? alg : null;
  if (alg.type === 'priority') {
    const data = alg.data.filter((c) => connectorOf(c) === name);
    return data.length ? { type: 'priority', data } : null;
  }
  const data = alg.data.filter((d) => connectorOf(d.connector) === name);
  return data.length ? { type: 'volume_split', data } : null;
}

/**
 * The account a payment goes to. Routing never sends a payment to an account it does not name: a routing (the
 * request's, else the profile's) that cannot serve the payment refuses it, saying why each of its choices cannot. A
 * forced connector keeps the routing's choice of accounts of that connector; only a connector the routing does not
 * name may go to any usable account of it.
 */
export function chooseRoute(input: RouteInput): Route | RouteRefusal {
  const why: string[] = [];
  const route = (a: RoutableAccount, reason: string): Route => ({
    connector: a.connector_name,
    merchant_connector_id: a.merchant_connector_id,
    connector_label: a.connector_label,
    reason,
  });

  const resolve = (choice: Choice, reason: string): Route | null => {
    const name = connectorOf(choice);
    const id = typeof choice === 'string' ? null : (choice.merchant_connector_id ?? null);
    const candidates = input.accounts.filter((a) => a.connector_name === name && (!id || a.merchant_connector_id === id));
    for (const a of candidates) {
      const cannot = accountCannot(a, input);
      if (!cannot) return route(a, reason);
      why.push(`${a.merchant_connector_id} (${name}): ${cannot}`);
    }
    if (candidates.length) return null;
    if (!input.merchantHasAccounts && !id) {
      const cannot = connectorCannot(name, input);
      if (!cannot) return { connector: name, merchant_connector_id: defaultAccountOf(name), connector_label: null, reason };
      why.push(`${name}: ${cannot}`);
      return null;
    }
    why.push(id ? `${id}: no such ${name} connector account in the payment's profile` : `${name}: no connector account in the payment's profile`);
    return null;
  };

  const run = (alg: RoutingAlgorithm, reason: string): Route | null => {
    const tag = `${reason}:${alg.type}`;
    if (alg.type === 'single') return resolve(alg.data, tag);
    if (alg.type === 'priority') {
      for (const c of alg.data) {
        const r = resolve(c, tag);
        if (r) return r;
      }
      return null;
    }
    // volume_split: a weighted draw among the parts that can take the payment.
    const parts = alg.data.map((d) => ({ route: resolve(d.connector, tag), split: d.split })).filter((p) => p.route && p.split > 0);
    const total = parts.reduce((t, p) => t + p.split, 0);
    let draw = input.random() * total;
    for (const p of parts) {
      if ((draw -= p.split) < 0) return p.route;
    }
    return parts.at(-1)?.route ?? null;
  };
  const refused = (param: RouteRefusal['param'], what: string): RouteRefusal => ({
    refused: `${what}${why.length ? `: ${[...new Set(why)].join('; ')}` : ''}`,
    param,
  });

  const routing = input.routing ?? input.profileRouting;
  if (input.forced?.length) {
    for (const name of input.forced) {
      const named = routing && restrictTo(routing, name);
      const r = named ? run(named, 'connector_forced') : resolve(name, 'connector_forced');
      if (r) return r;
    }
    // One connector with a usable account, which cannot take a value of the payment: the refusal names that field.
    const only = input.forced.length === 1 ? input.forced[0]! : null;
    const hasAccount = !input.merchantHasAccounts || input.accounts.some((a) => a.connector_name === only && !a.disabled);
    const capability = only && hasAccount && capabilities(only).implemented ? capabilityRefusal(only, input) : null;
    if (capability) return { refused: capability.message, param: capability.param };
    return refused('connector', `no connector account of ${input.forced.join(', ')} can take this payment`);
  }
  if (input.routing) return run(input.routing, 'request_routing') ?? refused('routing', 'no connector account of this routing can take this payment');
  if (input.profileRouting) {
    return (
      run(input.profileRouting, 'profile_default') ??
      refused('routing', "no connector account of the business profile's routing_algorithm can take this payment")
    );
  }
  for (const a of input.accounts) if (!accountCannot(a, input)) return route(a, 'first_enabled_account');
  if (!input.merchantHasAccounts) {
    const cannot = connectorCannot(DEFAULT_CONNECTOR, input);
    if (!cannot) return { connector: DEFAULT_CONNECTOR, merchant_connector_id: DEFAULT_ACCOUNT_ID, connector_label: null, reason: 'default_connector' };
  }
  for (const a of input.accounts) why.push(`${a.merchant_connector_id} (${a.connector_name}): ${accountCannot(a, input)}`);
  return refused('connector', 'no enabled connector account can take this payment');
}
