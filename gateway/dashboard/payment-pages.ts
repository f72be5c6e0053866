// The dashboard's payments, refunds and disputes (issue 23): lists with filters (lists.ts, the list endpoints' own
// conditions), one payment's page with its amounts, refunds, disputes, trace ids and timeline (timeline.ts), and its
// capture, cancel and refund forms (payment-actions.ts, the API's own operations). Every read is of the signed-in
// merchant's own records: another merchant's payment id is 404, as an unknown one.
import { type Request, type Response, Router } from 'express';
import { config } from '../../lib/config.ts';
import { errors } from '../../lib/errors.ts';
import { toDecimalString } from '../../lib/money.ts';
import { CONNECTORS, PAYMENT_STATUSES } from '../../lib/schemas/common.ts';
import { DISPUTE_STAGES, DISPUTE_STATUSES, type DisputeResource } from '../../lib/schemas/dispute.ts';
import { REFUND_STATUSES } from '../../lib/schemas/refund.ts';
import { DisputeStore } from '../../lib/dispute-store.ts';
import type { ListedPayment } from '../../adapters/payment-store.ts';
import type { ListedRefund } from '../../adapters/refund-store.ts';
import type { StoredPayment } from '../../domain/payment.ts';
import { canStart } from '../../domain/transitions.ts';
import { ROUTING } from '../scope.ts';
import type { DashboardContext } from './context.ts';
import { field, notice } from './forms.ts';
import { html, type SafeHtml } from './html.ts';
import { DASHBOARD_PATH, type DashboardSession, csrfField, dashboardPage } from './layout.ts';
import { type ListPage, listDisputes, listPayments, listRefunds } from './lists.ts';
import { ACTIONS, type ActionName, type ActionResult, amountsOf, formAmount, newFormKey, runAction } from './payment-actions.ts';
import { verifyCsrf } from './session.ts';
import { type TimelineEntry, readTimeline, traceLink } from './timeline.ts';

export const PAYMENTS_PATH = `${DASHBOARD_PATH}/payments`;
export const REFUNDS_PATH = `${DASHBOARD_PATH}/refunds`;
export const DISPUTES_PATH = `${DASHBOARD_PATH}/disputes`;
export const paymentPath = (paymentId: string) => `${PAYMENTS_PATH}/${encodeURIComponent(paymentId)}`;

const session = (res: Response): DashboardSession => {
  const s = res.locals.dashboard;
  if (!s) throw new Error('a dashboard page without requireSession');
  return s;
};

const money = (minor: number | null | undefined, currency: StoredPayment['currency']) => `${toDecimalString(minor ?? 0, currency)} ${currency}`;
const words = (s: string) => s.replaceAll('_', ' ');
const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '—');

const GOOD = new Set(['succeeded', 'partially_captured', 'delivered', 'dispute_won', 'dispute_accepted']);
const BAD = new Set(['failed', 'cancelled', 'dispute_lost', 'not_configured']);
const badge = (status: string): SafeHtml =>
  html`<span class="badge${GOOD.has(status) ? ' good' : BAD.has(status) ? ' bad' : ''}" data-status="${status}">${words(status)}</span>`;

// ---- Lists ----

type Option = { value: string; label: string };
const choices = (values: readonly string[]): Option[] => values.map((v) => ({ value: v, label: words(v) }));

function select(label: string, name: string, options: Option[], value: string | undefined): SafeHtml {
  return html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}"><option value="">Any</option>${options.map(
    (o) => html`<option value="${o.value}"${o.value === value ? html` selected` : ''}>${o.label}</option>`,
  )}</select></div>`;
}

/** The GET form of a list: its filters side by side (the stylesheet's grid), the error naming its field. */
function filterForm(path: string, list: ListPage<unknown>, selects: SafeHtml[], searchLabel: string): SafeHtml {
  const v = list.values;
  const err = (name: string) => (list.error?.field === name ? list.error.message : undefined);
  return html`<form method="get" action="${path}" class="card filters" role="search">
${notice('error', list.error && !['status', 'stage', 'connector', 'from', 'to', 'q'].includes(list.error.field) ? list.error.message : undefined)}
<div class="stats">${selects}
<div>${field({ label: 'From', name: 'from', type: 'date', value: v.from, error: err('from') })}</div>
<div>${field({ label: 'To', name: 'to', type: 'date', value: v.to, error: err('to') })}</div>
<div>${field({ label: searchLabel, name: 'q', type: 'search', value: v.q, error: err('q') })}</div></div>
${['status', 'stage', 'connector'].map((f) => (err(f) ? html`<p class="field-error">${err(f)}</p>` : ''))}
<div class="actions"><button type="submit">Filter</button><a href="${path}">Clear</a></div></form>`;
}

/** Previous and next links keeping the filters. */
function pager(path: string, list: ListPage<unknown>): SafeHtml {
  const at = (page: number) => {
    const q = new URLSearchParams({ ...list.values, page: String(page) });
    return `${path}?${q.toString()}`;
  };
  return html`<nav class="actions" aria-label="Pages">${list.page > 1 ? html`<a href="${at(list.page - 1)}" rel="prev">← Newer</a>` : ''}
<span class="muted">Page ${list.page}</span>${list.hasNext ? html`<a href="${at(list.page + 1)}" rel="next">Older →</a>` : ''}</nav>`;
}

const empty = (cols: number, what: string) => html`<tr><td colspan="${cols}" class="muted">${what}</td></tr>`;

function paymentRows(rows: ListedPayment[]): SafeHtml {
  if (!rows.length) return empty(6, 'No payments match.');
  return html`${rows.map(
    (p) => html`<tr data-payment-id="${p.payment_id}"><td><a class="mono" href="${paymentPath(p.payment_id)}">${p.payment_id}</a></td>
<td>${when(p.created)}</td><td>${money(p.amount, p.currency)}</td><td>${badge(p.status)}</td><td>${p.connector ?? '—'}</td>
<td class="mono">${p.customer_id ?? '—'}</td></tr>`,
  )}`;
}

function refundRows(rows: ListedRefund[]): SafeHtml {
  if (!rows.length) return empty(7, 'No refunds match.');
  return html`${rows.map(
    (r) => html`<tr data-refund-id="${r.refund_id}"><td class="mono">${r.refund_id}</td>
<td><a class="mono" href="${paymentPath(r.payment_id)}">${r.payment_id}</a></td>
<td>${r.currency ? money(r.amount, r.currency) : '—'}</td><td>${r.status ? badge(r.status) : '—'}</td><td>${r.connector ?? '—'}</td>
<td>${r.reason ?? ''}</td><td>${when(r.created_at)}</td></tr>`,
  )}`;
}

function disputeRows(rows: DisputeResource[]): SafeHtml {
  if (!rows.length) return empty(7, 'No disputes match.');
  return html`${rows.map(
    (d) => html`<tr data-dispute-id="${d.dispute_id}"><td class="mono">${d.dispute_id}</td>
<td><a class="mono" href="${paymentPath(d.payment_id)}">${d.payment_id}</a></td>
<td>${d.amount} ${d.currency}</td><td>${badge(d.dispute_status)}</td><td>${words(d.dispute_stage)}</td><td>${d.connector}</td>
<td>${when(d.created_at)}</td></tr>`,
  )}`;
}

// ---- One payment ----

interface Forms {
  /** The action whose form was sent, and what came of it. */
  sent?: { action: ActionName; result: ActionResult; values: Record<string, string> };
}

function actionForm(
  p: StoredPayment,
  s: DashboardSession,
  action: ActionName,
  forms: Forms,
  inner: (v: Record<string, string>, err: (f: string) => string | undefined) => SafeHtml,
): SafeHtml {
  const sent = forms.sent?.action === action ? forms.sent : undefined;
  const failed = sent && !sent.result.ok ? sent.result : undefined;
  const err = (f: string) => (failed?.field === f ? failed.message : undefined);
  const label = { capture: 'Capture', cancel: 'Cancel payment', refund: 'Refund' }[action];
  return html`<form method="post" action="${paymentPath(p.payment_id)}/${action}" class="card" id="${action}-form">
<h2>${label}</h2>
${notice('error', failed && !failed.field ? failed.message : undefined)}${notice('ok', sent?.result.ok ? sent.result.message : undefined)}
${csrfField(s)}<input type="hidden" name="idempotency_key" value="${newFormKey()}">
${inner(failed && sent ? sent.values : {}, err)}
<div class="actions"><button type="submit"${action === 'cancel' ? html` class="danger"` : ''}>${label}</button></div></form>`;
}

type FieldsOf = (p: StoredPayment, v: Record<string, string>, err: (f: string) => string | undefined) => SafeHtml;
const amountField = (p: StoredPayment, upTo: number, v: Record<string, string>, err: (f: string) => string | undefined) =>
  field({
    label: `Amount (${p.currency})`,
    name: 'amount',
    value: v.amount ?? formAmount(upTo, p),
    error: err('amount'),
    hint: `Up to ${money(upTo, p.currency)}`,
  });
const reasonField = (v: Record<string, string>, err: (f: string) => string | undefined) =>
  field({ label: 'Reason (optional)', name: 'reason', value: v.reason, error: err('reason') });

/** Each form's fields: capture defaults to what can be captured, refund to what is captured and not refunded. */
const FIELDS: Record<ActionName, FieldsOf> = {
  capture: (p, v, err) => amountField(p, amountsOf(p).capturable, v, err),
  cancel: (_p, v, err) => reasonField(v, err),
  refund: (p, v, err) => html`${amountField(p, amountsOf(p).refundable, v, err)}${reasonField(v, err)}`,
};

/** An action's form is offered when the payment may start it now, and there is something to capture or refund. */
function actionAllowed(p: StoredPayment, action: ActionName): boolean {
  if (canStart(p, action)) return false;
  const a = amountsOf(p);
  return action === 'capture' ? a.capturable > 0 : action === 'refund' ? a.refundable > 0 : true;
}

function actionForms(p: StoredPayment, s: DashboardSession, forms: Forms): SafeHtml {
  const offered = ACTIONS.filter((action) => actionAllowed(p, action));
  // The result of a form no longer offered (the payment moved on: captured, cancelled, refunded in full) goes on top.
  const gone = forms.sent && !offered.includes(forms.sent.action) ? forms.sent.result : undefined;
  return html`${gone ? notice(gone.ok ? 'ok' : 'error', gone.message) : ''}${
    offered.length
      ? html`<div class="stats">${offered.map((action) => actionForm(p, s, action, forms, (v, err) => FIELDS[action](p, v, err)))}</div>`
      : html`<p class="muted">No capture, cancel or refund is possible while the payment is ${words(p.status)}.</p>`
  }`;
}

/** A timeline's time: the time of day to the millisecond (its entries are often within one second), the whole instant on hover. */
const clock = (iso: string) => html`<time datetime="${iso}" title="${when(iso)}">${iso.slice(11, 23)}</time>`;

function timelineTable(entries: TimelineEntry[]): SafeHtml {
  const KIND = { transition: 'Transition', provider_call: 'Provider call', event: 'Event', webhook_attempt: 'Webhook attempt' } as const;
  return html`<table id="timeline"><thead><tr><th>Time (UTC)</th><th>What</th><th>Title</th><th>Details</th><th>Trace</th></tr></thead><tbody>${entries.map(
    (e) => html`<tr data-kind="${e.kind}"><td>${clock(e.at)}</td><td>${KIND[e.kind]}</td>
<td>${e.ok === false ? html`<span class="badge bad">${e.title}</span>` : e.title}</td>
<td class="mono">${e.detail}</td><td>${e.trace_id ? traceRef(e.trace_id, true) : ''}</td></tr>`,
  )}</tbody></table>`;
}

function traceRef(traceId: string, short = false): SafeHtml {
  const link = traceLink(traceId, config.traceViewerUrl);
  const text = short ? traceId.slice(0, 8) : traceId;
  return link
    ? html`<a href="${link}" rel="noopener noreferrer" target="_blank" title="${traceId}">${text}</a>`
    : html`<span title="${traceId}">${text}</span>`;
}

async function renderPayment(ctx: DashboardContext, req: Request, res: Response, forms: Forms = {}): Promise<void> {
  const s = session(res);
  const read = await readTimeline(ctx.db, ctx.deps.store, s.merchantId, req.params.payment_id as string);
  if (!read) throw errors.notFound('Payment', 'payment_id');
  const { payment: p, entries, traceIds } = read;
  const a = amountsOf(p);
  const refunds = p.refunds ?? [];
  const disputes = p.disputes ?? [];
  const body = html`<p><a href="${PAYMENTS_PATH}">← Payments</a></p>
<h1>Payment <span class="mono" id="payment-id">${p.payment_id}</span> ${badge(p.status)}</h1>
<div class="stats" id="amounts">
<div class="card"><div class="n">${money(p.amount, p.currency)}</div>Amount</div>
<div class="card"><div class="n">${money(a.authorized, p.currency)}</div>Authorized</div>
<div class="card"><div class="n">${money(a.captured, p.currency)}</div>Captured</div>
<div class="card"><div class="n">${money(a.refunded, p.currency)}</div>Refunded${a.refundPending ? html` <span class="muted">(${money(a.refundPending, p.currency)} pending)</span>` : ''}</div>
</div>
<div class="card"><dl class="facts">
<dt>Connector</dt><dd>${p.connector ?? '—'}${p.merchant_connector_id ? html` <span class="muted mono">${p.merchant_connector_id}</span>` : ''}</dd>
<dt>Customer</dt><dd class="mono">${p.customer_id ?? '—'}${p.customer?.email ? html` · ${p.customer.email}` : ''}</dd>
<dt>Order</dt><dd>${p.merchant_order_reference_id ?? '—'}${p.description ? html` · ${p.description}` : ''}</dd>
<dt>Capture method</dt><dd>${words(p.capture_method ?? 'automatic')}</dd>
<dt>Created</dt><dd>${when(p.created)}</dd>
<dt>Updated</dt><dd>${when(p.updated)}</dd>
${p.error_message ? html`<dt>Last error</dt><dd>${p.error_code ? html`<span class="mono">${p.error_code}</span> ` : ''}${p.error_message}</dd>` : ''}
${p.payment_link ? html`<dt>Checkout page</dt><dd><a href="${p.payment_link.link}">${p.payment_link.link}</a></dd>` : ''}
<dt>Trace ids</dt><dd class="mono" id="trace-ids">${traceIds.length ? traceIds.map((t, i) => html`${i ? ', ' : ''}${traceRef(t)}`) : '—'}${config.traceViewerUrl ? '' : html` <span class="muted">(set TRACE_VIEWER_URL to link them)</span>`}</dd>
</dl></div>
${actionForms(p, s, forms)}
<h2>Refunds</h2>
<table id="payment-refunds"><thead><tr><th>Refund</th><th>Amount</th><th>Status</th><th>Reason</th><th>Created</th></tr></thead><tbody>${
    refunds.length
      ? refunds.map(
          (r) => html`<tr data-refund-id="${r.refund_id}"><td class="mono">${r.refund_id}</td><td>${money(r.amount, p.currency)}</td><td>${badge(r.status)}</td>
<td>${r.reason ?? ''}${r.error_message ? html` <span class="muted">${r.error_message}</span>` : ''}</td><td>${when(r.created_at)}</td></tr>`,
        )
      : empty(5, 'No refunds.')
  }</tbody></table>
${
  disputes.length
    ? html`<h2>Disputes</h2><table><thead><tr><th>Dispute</th><th>Amount</th><th>Status</th><th>Stage</th><th>Received</th></tr></thead><tbody>${disputes.map(
        (d) =>
          html`<tr><td class="mono">${d.dispute_id}</td><td>${d.amount} ${d.currency}</td><td>${badge(d.dispute_status)}</td><td>${words(d.dispute_stage)}</td><td>${when(d.created_at)}</td></tr>`,
      )}</tbody></table>`
    : ''
}
<h2>Timeline</h2>
<p class="muted">Every state change of the payment, each call to the provider, each event and each delivery attempt to your webhook URL, oldest first.</p>
${timelineTable(entries)}`;
  const failed = forms.sent && !forms.sent.result.ok;
  res
    .status(failed ? 400 : 200)
    .type('html')
    .send(dashboardPage({ title: `Payment ${p.payment_id}`, session: s, active: 'payments', body }));
}

/** A form's values to show again after a refusal (strings only; never the CSRF token or the idempotency key). */
function sentValues(body: unknown): Record<string, string> {
  if (!body || typeof body !== 'object') return {};
  const out: Record<string, string> = {};
  for (const k of ['amount', 'reason'] as const) {
    const v = (body as Record<string, unknown>)[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

export function paymentPages(ctx: DashboardContext): Router {
  const r = Router(ROUTING);
  const disputes = new DisputeStore(ctx.db);
  const connectors = choices(CONNECTORS);

  r.get(PAYMENTS_PATH, ctx.signedIn, async (req, res) => {
    const s = session(res);
    const list = await listPayments(ctx.deps.store, s.merchantId, req.query);
    const body = html`<h1>Payments</h1>
${filterForm(PAYMENTS_PATH, list, [select('Status', 'status', choices(PAYMENT_STATUSES), list.values.status), select('Connector', 'connector', connectors, list.values.connector)], 'Payment id or customer id')}
<table id="payments"><thead><tr><th>Payment</th><th>Created</th><th>Amount</th><th>Status</th><th>Connector</th><th>Customer</th></tr></thead>
<tbody>${paymentRows(list.rows)}</tbody></table>${pager(PAYMENTS_PATH, list)}`;
    res
      .status(list.error ? 400 : 200)
      .type('html')
      .send(dashboardPage({ title: 'Payments', session: s, active: 'payments', body }));
  });

  r.get(`${PAYMENTS_PATH}/:payment_id`, ctx.signedIn, (req, res) => renderPayment(ctx, req, res));

  for (const action of ACTIONS) {
    r.post(`${PAYMENTS_PATH}/:payment_id/${action}`, ctx.signedIn, verifyCsrf, async (req, res) => {
      const s = session(res);
      const p = await ctx.deps.store.find(s.merchantId, req.params.payment_id as string);
      if (!p) throw errors.notFound('Payment', 'payment_id');
      const result = await runAction(ctx.deps, s.merchantId, p, action, req.body);
      await renderPayment(ctx, req, res, { sent: { action, result, values: sentValues(req.body) } });
    });
  }

  r.get(REFUNDS_PATH, ctx.signedIn, async (req, res) => {
    const s = session(res);
    const list = await listRefunds(ctx.deps.refunds, s.merchantId, req.query);
    const body = html`<h1>Refunds</h1>
${filterForm(REFUNDS_PATH, list, [select('Status', 'status', choices(REFUND_STATUSES), list.values.status), select('Connector', 'connector', connectors, list.values.connector)], 'Refund id or payment id')}
<table id="refunds"><thead><tr><th>Refund</th><th>Payment</th><th>Amount</th><th>Status</th><th>Connector</th><th>Reason</th><th>Created</th></tr></thead>
<tbody>${refundRows(list.rows)}</tbody></table>${pager(REFUNDS_PATH, list)}`;
    res
      .status(list.error ? 400 : 200)
      .type('html')
      .send(dashboardPage({ title: 'Refunds', session: s, active: 'refunds', body }));
  });

  r.get(DISPUTES_PATH, ctx.signedIn, async (req, res) => {
    const s = session(res);
    const list = await listDisputes(disputes, s.merchantId, req.query);
    const body = html`<h1>Disputes</h1>
${filterForm(
  DISPUTES_PATH,
  list,
  [
    select('Status', 'status', choices(DISPUTE_STATUSES), list.values.status),
    select('Stage', 'stage', choices(DISPUTE_STAGES), list.values.stage),
    select('Connector', 'connector', connectors, list.values.connector),
  ],
  'Dispute id or payment id',
)}
<table id="disputes"><thead><tr><th>Dispute</th><th>Payment</th><th>Amount</th><th>Status</th><th>Stage</th><th>Connector</th><th>Received</th></tr></thead>
<tbody>${disputeRows(list.rows)}</tbody></table>${pager(DISPUTES_PATH, list)}`;
    res
      .status(list.error ? 400 : 200)
      .type('html')
      .send(dashboardPage({ title: 'Disputes', session: s, active: 'disputes', body }));
  });

  return r;
}
