// The dashboard's page shell: the nav, the signed-in merchant, and the sign-out form (a POST carrying the CSRF token).
// Styles come from the router's stylesheet (no inline style or script: the CSP is self-only, gateway/csp.ts).
import { html, type SafeHtml } from './html.ts';

export const DASHBOARD_PATH = '/dashboard';
export const STYLESHEET_PATH = `${DASHBOARD_PATH}/static/dashboard.css`;

/** The signed-in user, as requireSession leaves it in res.locals.dashboard. */
export interface DashboardSession {
  merchantId: string;
  email: string;
  /** The synchronizer token every POST form carries as `_csrf` (verifyCsrf). */
  csrfToken: string;
}

export const NAV = [
  { id: 'overview', label: 'Overview', href: DASHBOARD_PATH },
  { id: 'payments', label: 'Payments', href: `${DASHBOARD_PATH}/payments` },
  { id: 'refunds', label: 'Refunds', href: `${DASHBOARD_PATH}/refunds` },
  { id: 'disputes', label: 'Disputes', href: `${DASHBOARD_PATH}/disputes` },
  { id: 'keys', label: 'API keys', href: `${DASHBOARD_PATH}/keys` },
  { id: 'connectors', label: 'Connectors', href: `${DASHBOARD_PATH}/connectors` },
  { id: 'webhooks', label: 'Webhooks', href: `${DASHBOARD_PATH}/webhooks` },
] as const;

export type NavId = (typeof NAV)[number]['id'];

/** The hidden field every POST form of a signed-in page carries. */
export const csrfField = (session: DashboardSession): SafeHtml => html`<input type="hidden" name="_csrf" value="${session.csrfToken}">`;

function document(title: string, bodyClass: string, content: SafeHtml): string {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title} · BNPL dashboard</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}"></head>
<body class="${bodyClass}">${content}</body></html>`.text;
}

/** A signed-in page: the nav with `active` marked, then `body`. */
export function dashboardPage(o: { title: string; session: DashboardSession; active: NavId | null; body: SafeHtml }): string {
  const links = NAV.map((n) => html`<a href="${n.href}"${n.id === o.active ? html` aria-current="page"` : ''}>${n.label}</a>`);
  return document(
    o.title,
    'signed-in',
    html`<header class="top"><span class="brand">BNPL dashboard</span>
<nav class="main" aria-label="Dashboard">${links}</nav>
<span class="who">${o.session.email}</span>
<form class="inline" method="post" action="${DASHBOARD_PATH}/signout">${csrfField(o.session)}<button type="submit" class="link">Sign out</button></form></header>
<main>${o.body}</main>`,
  );
}

/** A page without a session (sign in, sign up, errors before sign-in). */
export function publicPage(o: { title: string; body: SafeHtml }): string {
  return document(o.title, 'signed-out', html`<main class="narrow"><div class="card">${o.body}</div></main>`);
}
