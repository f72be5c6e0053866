// The shape of the code, checked over the import graph: `npm run lint:deps` (`node scripts/import-rules.ts` prints the
// violations; test/import-rules.test.ts runs the same). The import rules are declared in .dependency-cruiser.cjs,
// one per layer with its reason, and judged by dependency-cruiser. Two rules are not about import paths and are
// checked here: which names of domain/ a file imports (the decisions, begin* and *Outcome, only in payment-state),
// and that only services/payment-state/ appends a transition (the gateway's create at seq 0 excepted).
//
// dependency-cruiser 18 reads TypeScript only through the `typescript` package below version 7 (we have 7, whose API
// is not published yet), so it is handed a copy of the checked sources with the types stripped by Node
// (node:module stripTypeScriptTypes), `import type` turned into a plain import so that type-only imports are judged
// too, and `.ts` specifiers and names as `.js`. Violations are reported with the original `.ts` paths.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire, stripTypeScriptTypes } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

const root = path.resolve(import.meta.dirname, '..');

/** The folders whose files the rules cover. */
export const CHECKED_DIRS = ['domain', 'adapters', 'gateway', 'services', 'workers', 'lib', 'scripts', 'bench', 'proto/generated', 'client'];

/** The checked files of the repository at `base` (unit tests left out: the rules are for what runs in production). */
export function repoFiles(base = root): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(base, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'results' && !(e.name === 'generated' && dir !== 'proto')) walk(rel);
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) files.set(rel, readFileSync(path.join(base, rel), 'utf8'));
    }
  };
  for (const d of CHECKED_DIRS) walk(d);
  return files;
}

/** A TypeScript source as the JavaScript dependency-cruiser reads: types stripped, type-only imports kept as imports. */
export function asJavaScript(source: string): string {
  const kept = source.replace(/^(\s*)import\s+type\s+(?=[{*\w])/gm, '$1import ').replace(/^(\s*)export\s+type\s+(?=[{*])/gm, '$1export ');
  const js = stripTypeScriptTypes(kept, { mode: 'strip' });
  // './x.ts' -> './x.js' in specifiers (and any other string: the copy is read, never run).
  return js.replace(/(['"])(\.{1,2}\/[^'"\n]*?)\.ts\1/g, '$1$2.js$1');
}

export interface Violation {
  rule: string;
  from: string;
  to: string;
  comment: string;
}

const toTs = (p: string) => p.replace(/\.js$/, '.ts');

/** Every import-rule violation in `files` (repo path -> TypeScript source), by .dependency-cruiser.cjs. */
export async function importViolations(files: Map<string, string>): Promise<Violation[]> {
  const require = createRequire(import.meta.url);
  const config = require(path.join(root, '.dependency-cruiser.cjs')) as IConfiguration;
  const dir = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
  const silence = process.emitWarning;
  try {
    // stripTypeScriptTypes warns that it is experimental, once per process: not news for a lint.
    process.emitWarning = (() => undefined) as typeof process.emitWarning;
    for (const [file, source] of files) {
      const out = path.join(dir, file.replace(/\.ts$/, '.js'));
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, asJavaScript(source));
    }
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    const dirs = [...new Set([...files.keys()].map((f) => f.split('/')[0]!))];
    const cwd = process.cwd();
    process.chdir(dir);
    let result: ICruiseResult;
    try {
      const r = await cruise(dirs, { ruleSet: { forbidden: config.forbidden }, ...config.options, validate: true, outputType: 'json' });
      result = (typeof r.output === 'string' ? JSON.parse(r.output) : r.output) as ICruiseResult;
    } finally {
      process.chdir(cwd);
    }
    const comments = new Map((config.forbidden ?? []).map((r) => [r.name, r.comment ?? '']));
    return result.summary.violations.map((v) => ({ rule: v.rule.name, from: toTs(v.from), to: toTs(v.to), comment: comments.get(v.rule.name) ?? '' }));
  } finally {
    process.emitWarning = silence;
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- What dependency-cruiser cannot express: imported names, and calls.

/** The import and export-from specifiers of a source file, with the names each one brings in. */
export function importsOf(source: string): { specifier: string; names: string[]; star: boolean; line: number }[] {
  const out: { specifier: string; names: string[]; star: boolean; line: number }[] = [];
  const lineAt = (i: number) => source.slice(0, i + /^[\n;]?\s*/.exec(source.slice(i))![0].length).split('\n').length;
  const clause = String.raw`(?:type\s+)?(\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)`;
  const fromRe = new RegExp(String.raw`(?:^|[\n;])\s*(?:import|export)\s+${clause}\s*from\s*['"]([^'"]+)['"]`, 'g');
  for (const m of source.matchAll(fromRe)) {
    const c = m[1]!;
    const braces = /\{([^}]*)\}/.exec(c)?.[1] ?? '';
    const names = braces
      .split(',')
      .map((n) =>
        n
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim(),
      )
      .filter(Boolean);
    out.push({ specifier: m[2]!, names, star: c.includes('*'), line: lineAt(m.index!) });
  }
  return out;
}

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);
const resolveSpecifier = (fromFile: string, specifier: string) =>
  specifier.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier)) : null;

/** Decision functions, wherever in domain/ they are exported from. */
export const isDecisionName = (name: string) => /^begin[A-Z]/.test(name) || /^[a-z]\w*Outcome$/.test(name);
const mayDecide = (file: string) => under(file, 'services/payment-state') || under(file, 'domain');

/** The one transition appended outside payment-state: the gateway records a new payment at seq 0. */
export const CREATE_APPEND = { file: 'gateway/routes/payments.ts', call: "deps.store.append(intent, { action: 'create'" };
/** Where the transitions collection is written and its indexes declared. */
const TRANSITION_WRITERS = ['adapters/payment-store.ts', 'lib/mongo.ts'];
/** `.append(` of something other than the payment store (URLSearchParams, FormData, Headers). */
const OTHER_APPEND = /\b(searchParams|params|form|formData|headers|body)\.append\(/;
const SELF = 'scripts/import-rules.ts';

/** Decisions imported by name outside payment-state, and transitions appended or written outside it. */
export function codeViolations(files: Map<string, string>): string[] {
  const out: string[] = [];
  let createAppends = 0;
  for (const [file, source] of files) {
    if (!mayDecide(file)) {
      for (const ref of importsOf(source)) {
        const target = resolveSpecifier(file, ref.specifier);
        if (!target || !under(target, 'domain')) continue;
        const at = `${file}:${ref.line} imports '${ref.specifier}'`;
        const decisions = ref.names.filter(isDecisionName);
        if (decisions.length) out.push(`${at} { ${decisions.join(', ')} }: only services/payment-state/ may import a decision (begin*, *Outcome)`);
        else if (ref.star && /export (async )?function (begin[A-Z]|[a-z]\w*Outcome\b)/.test(files.get(target) ?? '')) {
          out.push(`${at} as a whole: it exports decisions, which only services/payment-state/ may import`);
        }
      }
    }
    if (under(file, 'services/payment-state') || TRANSITION_WRITERS.includes(file) || file === SELF) continue;
    source.split('\n').forEach((text, i) => {
      if (/^\s*(\/\/|\/?\*)/.test(text)) return;
      const at = `${file}:${i + 1}`;
      if (/\.append\(/.test(text) && !OTHER_APPEND.test(text)) {
        if (file === CREATE_APPEND.file && text.includes(CREATE_APPEND.call)) createAppends++;
        else out.push(`${at} appends a transition (${text.trim()}): only services/payment-state/ does, after the gateway's create at seq 0`);
      }
      if (/collection(<[^>]*>)?\(\s*['"]transitions['"]/.test(text) && /insert|update|replace|delete|bulkWrite/.test(text)) {
        out.push(`${at} writes the transitions collection (${text.trim()}): only adapters/payment-store.ts does, for services/payment-state/`);
      }
    });
  }
  if (files.has(CREATE_APPEND.file) && createAppends !== 1) {
    out.push(`${CREATE_APPEND.file}: expected exactly one create at seq 0 (${CREATE_APPEND.call} ...), found ${createAppends}`);
  }
  return out;
}

/** Every violation, as lines to print. */
export async function violations(files: Map<string, string>): Promise<string[]> {
  const imports = await importViolations(files);
  return [...imports.map((v) => `${v.from} -> ${v.to}: ${v.rule} (${v.comment})`), ...codeViolations(files)];
}

if (import.meta.main) {
  const found = await violations(repoFiles());
  for (const v of found) console.error(v);
  if (found.length) process.exit(1);
  console.log('import rules: ok (.dependency-cruiser.cjs and scripts/import-rules.ts)');
}
