// How much of a connector was checked against the provider's own material, counted from its README
// (workers/connectors/<name>/README.md), so the numbers its manifest states (`verification`, shown by GET
// /feature_matrix and README.md's connector table) cannot drift from the README (test/connectors.test.ts):
//  - verified: the rows of the tables under the heading `## Sources` (its `###` subsections included, up to the next
//    `## ` heading): each row is one request or answer point traced to a source, named in its last cell;
//  - unverified: the top-level items (`- ` or `1. ` at the start of a line) of the list under the heading `## UNVERIFIED`.
// A README without a `## Sources` heading counts 0 verified (a connector not yet traced to its provider's material).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export interface Counted {
  verified: number;
  unverified: number;
}

const SEPARATOR = /^\|(\s*:?-+:?\s*\|)+\s*$/;

/** The lines of the `## <title…>` section (up to the next `## ` heading); null when there is none, an error when there are two. */
function section(lines: string[], title: RegExp): string[] | null {
  const starts = lines.flatMap((l, i) => (/^## /.test(l) && title.test(l.slice(3)) ? [i] : []));
  if (starts.length > 1) throw new Error(`two sections match ${title}: lines ${starts.map((i) => i + 1).join(', ')}`);
  if (!starts.length) return null;
  const from = starts[0]! + 1;
  const next = lines.findIndex((l, i) => i >= from && /^## /.test(l));
  return lines.slice(from, next < 0 ? lines.length : next);
}

/** The body rows of every table in these lines (a table's header is the line above its separator row). */
function tableRows(lines: string[]): string[] {
  return lines.filter((l, i) => l.startsWith('|') && !SEPARATOR.test(l) && !SEPARATOR.test(lines[i + 1] ?? ''));
}

/** The counts of one README's text; throws when a Sources row names no source or the UNVERIFIED list is missing. */
export function countVerification(readme: string): Counted {
  const lines = readme.split('\n');
  const sources = section(lines, /^Sources\b/);
  const rows = sources ? tableRows(sources) : [];
  for (const row of rows) {
    const cells = row.replace(/\\\|/g, '').split('|').slice(1, -1);
    if (!cells.at(-1)?.trim()) throw new Error(`a Sources row names no source (its last cell is empty): ${row}`);
  }
  const unverified = section(lines, /^UNVERIFIED\b/);
  if (!unverified) throw new Error('no `## UNVERIFIED` section (write it, even as "none")');
  return { verified: rows.length, unverified: unverified.filter((l) => /^(- |\d+\. )/.test(l)).length };
}

/** The counts of a connector's README (workers/connectors/<name>/README.md), or null when it has none. */
export function readmeVerification(name: string, base = root): Counted | null {
  const file = path.join(base, 'workers/connectors', name, 'README.md');
  return existsSync(file) ? countVerification(readFileSync(file, 'utf8')) : null;
}

/** The items of a README's `## Before going live` list (what a merchant confirms with the provider), or null when it has none. */
export function readmeChecklist(readme: string): string[] | null {
  const lines = section(readme.split('\n'), /^Before going live\b/);
  if (!lines) return null;
  // An item may wrap onto indented lines: joined with single spaces.
  const items: string[] = [];
  for (const l of lines) {
    if (/^- /.test(l)) items.push(l.slice(2).trim());
    else if (/^\s+\S/.test(l) && items.length) items[items.length - 1] += ` ${l.trim()}`;
  }
  return items;
}
