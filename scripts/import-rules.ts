// The shape of the code, checked over the import graph (test/import-rules.test.ts; `node scripts/import-rules.ts`
// prints the violations). docs/architecture.md states the rules:
//  - domain/ is the pure payment model: it imports only domain/ and lib/schemas/ (and zod, node:crypto);
//    lib/schemas/ imports only itself and zod, so nothing domain/ reaches does I/O;
//  - gateway/ and services/ never import workers/, and lib/ never imports a process (gateway/, services/, workers/),
//    except the connectors' manifests (workers/connectors/manifest.ts, manifests.ts, <name>/manifest.ts): pure data
//    that imports only other manifests, lib/schemas/ and zod, which every folder (domain/ too) may read;
//  - the decisions (domain/begin.ts, domain/outcomes.ts, and every begin* / *Outcome function) are imported only by
//    services/payment-state/ (and domain/ itself, and the tests);
//  - only services/payment-state/ appends a transition; the one exception is the gateway's create at seq 0.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The folders whose files the rules cover (proto/generated is generated code and is left out). */
export const CHECKED_DIRS = ['domain', 'gateway', 'services', 'workers', 'lib', 'scripts', 'bench'];

export interface ImportRef { specifier: string; names: string[]; star: boolean; line: number }

/** The import and export-from specifiers of a source file, with the names each one brings in. */
export function importsOf(source: string): ImportRef[] {
  const out: ImportRef[] = [];
  /** The line of a match, past the newline or semicolon a match may start with. */
  const lineAt = (i: number) => source.slice(0, i + /^[\n;]?\s*/.exec(source.slice(i))![0].length).split('\n').length;
  const clause = String.raw`(?:type\s+)?(\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+\w+))?)`;
  const fromRe = new RegExp(String.raw`(?:^|[\n;])\s*(?:import|export)\s+${clause}\s*from\s*['"]([^'"]+)['"]`, 'g');
  for (const m of source.matchAll(fromRe)) {
    const c = m[1]!;
    const braces = /\{([^}]*)\}/.exec(c)?.[1] ?? '';
    const names = braces.split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim()).filter(Boolean);
    out.push({ specifier: m[2]!, names, star: c.includes('*'), line: lineAt(m.index!) });
  }
  for (const m of source.matchAll(/(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g)) out.push({ specifier: m[1]!, names: [], star: true, line: lineAt(m.index!) });
  for (const m of source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ specifier: m[1]!, names: [], star: true, line: lineAt(m.index!) });
  return out;
}

/** A relative specifier as a repo path (posix), or null for a package or node: builtin. */
export function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
}

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);

/** The connectors' manifests: pure data every process reads (capabilities, queue policy, the worker processes). */
export const isManifest = (file: string) =>
  file === 'workers/connectors/manifest.ts' || file === 'workers/connectors/manifests.ts' || /^workers\/connectors\/[^/]+\/manifest\.ts$/.test(file);

/** Decision modules: only payment-state (and domain/, and the tests) may import them at all. */
export const DECISION_MODULES = ['domain/begin.ts', 'domain/outcomes.ts'];
/** Decision functions, wherever in domain/ they are exported from. */
export const isDecisionName = (name: string) => /^begin[A-Z]/.test(name) || /^[a-z]\w*Outcome$/.test(name);
const mayDecide = (file: string) => under(file, 'services/payment-state') || under(file, 'domain') || under(file, 'test');

/** Packages domain/ may import: no I/O. */
const DOMAIN_PACKAGES = ['zod', 'node:crypto'];

/** The one transition appended outside payment-state: the gateway records a new payment at seq 0. */
export const CREATE_APPEND = { file: 'gateway/routes/payments.ts', call: "deps.store.append(intent, { action: 'create'" };
/** Where the transitions collection is written and its indexes declared. */
const TRANSITION_WRITERS = ['lib/payment-store.ts', 'lib/mongo.ts'];
/** `.append(` of something other than the payment store (URLSearchParams, FormData, Headers). */
const OTHER_APPEND = /\b(searchParams|params|form|formData|headers|body)\.append\(/;

/** This file: it names the calls it looks for. */
const SELF = 'scripts/import-rules.ts';

/** Every violation in `files` (repo path -> source), each naming the file, the line and the import or call. */
export function violations(files: Map<string, string>): string[] {
  const out: string[] = [];
  let createAppends = 0;
  for (const [file, source] of files) {
    for (const ref of importsOf(source)) {
      const target = resolveSpecifier(file, ref.specifier);
      const at = `${file}:${ref.line} imports '${ref.specifier}'`;
      if (isManifest(file) && (target === null ? ref.specifier !== 'zod' : !(isManifest(target) || under(target, 'lib/schemas')))) {
        out.push(`${at}: a connector manifest is pure data: it may import only other manifests, lib/schemas/ and zod`);
      }
      if (under(file, 'domain')) {
        if (target === null ? !DOMAIN_PACKAGES.includes(ref.specifier) : !(under(target, 'domain') || under(target, 'lib/schemas') || isManifest(target))) {
          out.push(`${at}: domain/ may import only domain/, lib/schemas/ and ${DOMAIN_PACKAGES.join(', ')}`);
        }
      }
      if (under(file, 'lib/schemas') && (target === null ? ref.specifier !== 'zod' : !under(target, 'lib/schemas'))) {
        out.push(`${at}: lib/schemas/ may import only lib/schemas/ and zod (domain/ imports it)`);
      }
      // The connector kit's notification verification is pure (node:crypto) and read by the gateway with the manifests.
      if (target === null || isManifest(target) || target === 'workers/connectors/kit/verify.ts') continue;
      if ((under(file, 'gateway') || under(file, 'services')) && under(target, 'workers')) {
        out.push(`${at}: gateway/ and services/ never import workers/`);
      }
      if (under(file, 'lib') && ['gateway', 'services', 'workers'].some((d) => under(target, d))) {
        out.push(`${at}: lib/ never imports a process (gateway/, services/, workers/)`);
      }
      if (!mayDecide(file) && under(target, 'domain')) {
        if (DECISION_MODULES.includes(target)) out.push(`${at}: only services/payment-state/ may import the decisions in ${target}`);
        else {
          const decisions = ref.names.filter(isDecisionName);
          if (decisions.length) out.push(`${at} { ${decisions.join(', ')} }: only services/payment-state/ may import a decision (begin*, *Outcome)`);
          else if (ref.star && /export (async )?function (begin[A-Z]|[a-z]\w*Outcome\b)/.test(files.get(target) ?? '')) {
            out.push(`${at} as a whole: it exports decisions, which only services/payment-state/ may import`);
          }
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
        out.push(`${at} writes the transitions collection (${text.trim()}): only lib/payment-store.ts does, for services/payment-state/`);
      }
    });
  }
  if (files.has(CREATE_APPEND.file) && createAppends !== 1) {
    out.push(`${CREATE_APPEND.file}: expected exactly one create at seq 0 (${CREATE_APPEND.call} ...), found ${createAppends}`);
  }
  return out;
}

/** The checked files of the repository at `root`, as repo path -> source. */
export function repoFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'generated' && e.name !== 'results') walk(rel);
      // A unit test beside its code is a test, like those under test/: the rules are for what runs in production.
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) files.set(rel, readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  for (const d of CHECKED_DIRS) walk(d);
  return files;
}

if (import.meta.main) {
  const found = violations(repoFiles(path.resolve(import.meta.dirname, '..')));
  for (const v of found) console.error(v);
  if (found.length) process.exit(1);
  console.log('import rules: ok');
}
