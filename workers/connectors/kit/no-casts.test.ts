// Parse, don't cast (kit/README.md): a provider's answer or notification is read with its zod schema through the kit
// (readAnswer, maybeAnswer, readValue, readBody), never cast to the shape we believe it has. This test reads every
// connector's source (not the tests) and names each line that casts or reads a provider body by hand. The rules are
// kept few and plain, so a line is easy to judge:
//   1. no `as any`, no `as unknown` (nor `as unknown as`), no `as Record<` anywhere in a connector;
//   2. no `.body as` (nor `(….body) as`): a body is parsed, not cast;
//   3. no cast to a provider type (a type inferred from a zod schema: `type T = z.infer<…>`): parse with the schema;
//   4. no `safeParse(….body)`: an answer is read with readAnswer (or maybeAnswer where no shape has a meaning);
//   5. no `JSON.parse(`: a notification's body is read with readBody.
// The kit's own readers (answer.ts, notification.ts) are where rules 4 and 5 are done once.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CONNECTORS = fileURLToPath(new URL('..', import.meta.url));
const READERS = new Set(['kit/answer.ts', 'kit/notification.ts']);

/** The code of a line without its comment (a `//` comment, or a line inside a block comment). */
function code(line: string): string {
  if (/^\s*(\*|\/\*)/.test(line)) return '';
  return line.replace(/(^|[^:'"`])\/\/.*$/, '$1');
}

/** The problems of one file's text: `line: rule`. `providerTypes`: the type names inferred from zod schemas. */
function castsIn(file: string, text: string, providerTypes: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const reader = READERS.has(file);
  text.split('\n').forEach((raw, i) => {
    const line = code(raw);
    const at = `${file}:${i + 1}`;
    if (/\bas (any|unknown)\b/.test(line)) out.push(`${at}: a cast to any/unknown (parse the value with a zod schema)`);
    if (/\bas Record</.test(line)) out.push(`${at}: a cast to Record<…> (parse the value with a zod schema, or read our own data with kit/order.ts)`);
    if (/\.body\)?\s+as\b/.test(line)) out.push(`${at}: a provider body cast (readAnswer/readValue/readBody with the connector's schema)`);
    for (const m of line.matchAll(/\bas\s+\(?([A-Z][A-Za-z0-9_]*)\b/g)) {
      if (providerTypes.has(m[1]!)) out.push(`${at}: a cast to the provider type ${m[1]} (parse with its schema instead)`);
    }
    if (!reader && /safeParse\([^)]*\.body\b/.test(line)) out.push(`${at}: safeParse of a provider body (readAnswer, or maybeAnswer for an optional shape)`);
    if (!reader && /\bJSON\.parse\(/.test(line)) out.push(`${at}: JSON.parse (a notification body is read with the kit's readBody)`);
  });
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Every type name the connectors infer from a zod schema (`type X = z.infer<…>`, z.output, z.input). */
function providerTypesIn(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(/\btype\s+([A-Z][A-Za-z0-9_]*)\s*=\s*z\.(infer|output|input)</g)) names.add(m[1]!);
  return names;
}

describe('connectors parse provider data, never cast it', () => {
  it('the checker names each rule it enforces, by file and line', () => {
    const types = new Set(['RivertyOrder']);
    const bad = [
      'const a = res.body as any;',
      'const b = x as unknown as Foo;',
      'const c = obj as Record<string, unknown>;',
      'const d = (answers[0]!.body) as { id: string };',
      'const e = transactionOf(res) as RivertyOrder;',
      'const f = Order.safeParse(res.body);',
      'const g = JSON.parse(raw);',
    ].join('\n');
    expect([...new Set(castsIn('x/response.ts', bad, types).map((p) => p.split(': ')[0]))]).toEqual([
      'x/response.ts:1',
      'x/response.ts:2',
      'x/response.ts:3',
      'x/response.ts:4',
      'x/response.ts:5',
      'x/response.ts:6',
      'x/response.ts:7',
    ]);
    const fine = [
      "const s = ['a', 'b'] as const;",
      '// the body as Riverty sends it',
      ' * read as any other',
      'const o = readAnswer(RivertyOrder, res, "riverty order");',
    ].join('\n');
    expect(castsIn('x/response.ts', fine, types)).toEqual([]);
  });

  it('no connector source casts or hand-parses a provider body', () => {
    const files = sources(CONNECTORS);
    const texts = files.map((f) => readFileSync(f, 'utf8'));
    const types = providerTypesIn(texts);
    const problems = files.flatMap((f, i) => castsIn(relative(CONNECTORS, f), texts[i]!, types));
    expect(problems, `casts of provider data in workers/connectors:\n${problems.join('\n')}`).toEqual([]);
  });
});
