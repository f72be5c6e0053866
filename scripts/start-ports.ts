// The ports `npm start`'s own processes will listen on, each with the variable that sets it, and which of them are
// taken already: a port answered by another process (another npm start) would make "up" a lie, so start refuses.
import { connect, createServer } from 'node:net';
import type { Config } from '../lib/config.ts';

export interface WantedPort {
  variable: string;
  host: string | undefined;
  port: number;
}

/** host:port, [v6]:port, or a bare port (gRPC's address forms that bind a TCP port). */
export function hostPort(addr: string): { host: string | undefined; port: number } | undefined {
  const m = /^(?:dns:|ipv4:|ipv6:)?(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(addr.trim()) ?? /^()()(\d+)$/.exec(addr.trim());
  if (!m) return undefined;
  return { host: m[1] || m[2] || undefined, port: Number(m[3]) };
}

export function wantedPorts(c: Pick<Config, 'port' | 'paymentStateAddr' | 'sandboxHost' | 'sandboxPort'>): WantedPort[] {
  const ps = hostPort(c.paymentStateAddr);
  return [
    { variable: 'PORT', host: undefined, port: c.port },
    ...(ps ? [{ variable: 'PAYMENT_STATE_ADDR', ...ps }] : []),
    { variable: 'SANDBOX_PORT', host: c.sandboxHost, port: c.sandboxPort },
  ].filter((w) => w.port > 0);
}

const canBind = (host: string | undefined, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code !== 'EADDRINUSE'));
    s.listen({ host, port, exclusive: true }, () => s.close(() => resolve(true)));
  });

export const answers = (port: number, host = '127.0.0.1') =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, host);
    s.once('connect', () => {
      s.end();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/** What stops a start: a port in use (bound, or answering on 127.0.0.1), or one port named by two variables. */
export async function portProblems(wanted: WantedPort[]): Promise<string[]> {
  const problems: string[] = [];
  wanted.forEach((w, i) => {
    const first = wanted.findIndex((o) => o.port === w.port);
    if (first < i) problems.push(`port ${w.port} is named by both ${wanted[first]!.variable} and ${w.variable}; set ${w.variable} to another`);
  });
  for (const w of wanted) {
    if (!(await canBind(w.host, w.port)) || (await answers(w.port))) {
      problems.push(`port ${w.port} (${w.variable}) is already in use (another npm start?); set ${w.variable} to use another`);
    }
  }
  return problems;
}

/** A URL to print: its user name and password left out. */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(not a URL)';
  }
}

/** Where each process answers GET /metrics, for the banner of `npm start`: payment-state and the workers on their HEALTH_PORT. */
export function metricsUrls(ports: { gateway: number; sandbox: number; health: Record<'payment-state' | 'workers' | 'webhooks', number> }): string {
  const at = (name: string, port: number) => `${name} http://127.0.0.1:${port}/metrics`;
  return [
    at('gateway', ports.gateway),
    at('payment-state', ports.health['payment-state']),
    at('workers', ports.health.workers),
    at('webhooks', ports.health.webhooks),
    at('sandbox', ports.sandbox),
  ].join(', ');
}
