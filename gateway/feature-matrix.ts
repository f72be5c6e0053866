// GET /feature_matrix (public, as in the reference switch): what each implemented connector can do, generated from
// the same manifests that the checks before queueing read. A connector still pointed at the provider sandbox also
// shows `sandbox_account_details`: the connector_account_details its imitation accepts, so a merchant can create a
// working connector account from it as is. Each entry's `verification` says how much of the connector was checked
// against the provider's own material, so a merchant knows what was.
import { fieldsNeeded } from '../domain/capabilities.ts';
import { MANIFESTS } from '../workers/connectors/manifests.ts';
import type { Manifest } from '../workers/connectors/manifest.ts';

const inSandbox = (m: Manifest) => !process.env[m.settings.base_url.env] && /^sandbox(\/|$)/.test(m.settings.base_url.default);

function entry(m: Manifest) {
  return {
    name: m.name,
    display_name: m.display_name ?? m.name,
    flows: m.flows,
    capture_methods: m.capture_methods,
    partial_capture: m.partial_capture,
    multiple_capture: m.multiple_capture,
    refunds: m.flows.includes('refund'),
    partial_refund: m.flows.includes('refund') && m.partial_refund !== false,
    incremental_authorization: m.flows.includes('incrementalAuthorization'),
    notifications: m.flows.includes('notification'),
    countries: m.countries,
    currencies: m.currencies,
    customer_types: m.customers,
    customer_step: m.customer_step ?? 'none',
    required_fields: m.required_fields,
    // What a capture itself needs, and per capture method every field due when the payment is confirmed and when
    // each capture is asked for (the checks before queueing read the same: domain/capabilities.ts fieldsNeeded).
    capture_fields: m.capture_fields ?? [],
    required_fields_by_capture_method: Object.fromEntries(m.capture_methods.map((c) => [c, fieldsNeeded(m, c)])),
    auth_type: m.auth_type,
    amount_unit: m.amount_unit,
    // Recurring payments (issue 22): which payment method types may set up a mandate, and whether a zero
    // authorization (payment_type setup_mandate) may; absent from the manifest: none (a mandate request is refused).
    mandates: {
      supported: !!m.mandates,
      payment_method_types: m.mandates?.payment_method_types ?? [],
      setup_mandate: m.mandates?.setup_mandate ?? false,
    },
    // What was checked against the provider's own material: counts of the points traced to a source and of those
    // UNVERIFIED in the connector's README, and the level they give (workers/connectors/manifest.ts Verification).
    verification: m.verification,
    ...(inSandbox(m) ? { sandbox_account_details: m.sandbox_account_details ?? { auth_type: m.auth_type, api_key: m.settings.default_api_key.default } } : {}),
  };
}

export function featureMatrix() {
  const connectors = Object.values(MANIFESTS)
    .filter((m): m is Manifest => !!m)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(entry);
  return { connector_count: connectors.length, connectors };
}
