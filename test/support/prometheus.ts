// Reads Prometheus's text exposition format (what GET /metrics answers) into samples: name, labels, value; and checks
// that the PromQL of the Grafana board and of the alerting rules names only series and labels the processes expose.
import { prometheusFamilies } from '../../lib/metrics.ts';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    samples.push({ name: m[1]!, labels, value: m[3] === '+Inf' ? Infinity : Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `match`. */
export const total = (samples: Sample[], name: string, match: Record<string, string> = {}): number =>
  samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);

/** The metric names and label names a PromQL expression uses. */
export function promqlNames(expr: string): { metrics: string[]; labels: string[] } {
  const labels: string[] = [];
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\[[^\]]*\]/g, ' ');
  rest = rest.replace(/\{([^}]*)\}/g, (_m, inner: string) => {
    for (const m of inner.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)) labels.push(m[1]!);
    return ' ';
  });
  rest = rest.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_m, inner: string) => {
    for (const l of inner.split(',')) if (l.trim()) labels.push(l.trim());
    return ' ';
  });
  const metrics = [...rest.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)]
    .filter((m) => !m[2] && !PROMQL_WORDS.has(m[1]!.toLowerCase()) && !m[1]!.startsWith('$'))
    .map((m) => m[1]!);
  return { metrics, labels };
}

/** Labels Prometheus adds to every series: the scrape job and instance, and our relabelled `service` (deploy/prometheus.yml). */
export const SCRAPE_LABELS = ['job', 'instance', 'service'];

/** A series name the processes expose (lib/metrics.ts prometheusFamilies(); a histogram's _bucket adds `le`), or
 * Prometheus makes of every scrape (`up`) → the labels it carries besides SCRAPE_LABELS. */
export const exposedSeries = (): Map<string, Set<string>> => {
  const exposed = new Map<string, Set<string>>([['up', new Set()]]);
  for (const f of prometheusFamilies()) {
    if (f.kind === 'histogram') {
      exposed.set(`${f.name}_bucket`, new Set([...f.labels, 'le']));
      exposed.set(`${f.name}_sum`, new Set(f.labels));
      exposed.set(`${f.name}_count`, new Set(f.labels));
    } else exposed.set(f.name, new Set(f.labels));
  }
  return exposed;
};

/** What a PromQL expression (a Grafana panel's, an alert's) names that no process exposes: unknown metrics, and
 * labels none of its metrics carry. Empty when every name exists; also when it names no metric at all, so callers
 * check `promqlNames(expr).metrics` is not empty. */
export function unexposedNames(expr: string, exposed = exposedSeries()): string[] {
  const { metrics, labels } = promqlNames(expr);
  const problems = metrics.filter((m) => !exposed.has(m)).map((m) => `metric ${m} is not exported`);
  const allowed = new Set([...SCRAPE_LABELS, ...metrics.flatMap((m) => [...(exposed.get(m) ?? [])])]);
  for (const l of labels) if (!allowed.has(l)) problems.push(`label ${l} is on none of ${metrics.join(', ')}`);
  return problems;
}
