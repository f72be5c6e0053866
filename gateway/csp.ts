// The Content-Security-Policy of the gateway's own pages (/docs, /admin/queues): everything from this origin only,
// nothing from a CDN, never framed; a page adds what it needs beyond that.
export function selfOnlyCsp(o: { inlineStyles?: boolean; extra?: string[] } = {}): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    o.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(o.extra ?? []),
  ].join('; ');
}
