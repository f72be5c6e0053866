// Summarises V8 .cpuprofile files (node --cpu-prof): per file, the functions with the most self time and the most
// inclusive time (a sample counts once per function on its stack), in ms and % of the busy time. A file is named by
// the process's command line when bench/profile/drive.ts left its counts beside it (counts/<pid>.json).
//   node bench/profile/summary.ts [--top 15] [--label pid=name ...] file.cpuprofile...
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';

const CallFrame = z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() });
const Profile = z.object({
  nodes: z.array(z.object({ id: z.number(), callFrame: CallFrame, children: z.array(z.number()).optional() })),
  samples: z.array(z.number()),
  timeDeltas: z.array(z.number()),
});

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '15' }, label: { type: 'string', multiple: true, default: [] } },
});
const top = Number(values.top);
const labels = new Map(values.label.map((l) => l.split('=') as [string, string]));

const where = (f: z.infer<typeof CallFrame>) => {
  const url = f.url.replace(/^file:\/\/.*?\/(node_modules\/)/, '$1').replace(/^file:\/\/\/work\/wt\/[^/]+\//, '');
  return `${f.functionName || '(anonymous)'} ${url ? `${url}:${f.lineNumber + 1}` : ''}`.trim();
};

for (const file of positionals) {
  const p = Profile.parse(JSON.parse(readFileSync(file, 'utf8')));
  const parent = new Map<number, number>();
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    const leaf = byId.get(id);
    if (!leaf) return;
    const k = where(leaf.callFrame);
    self.set(k, (self.get(k) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (!node) break;
      const key = where(node.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
    }
  });
  const idle = self.get('(idle)') ?? 0;
  const pid = basename(file).split('.')[3] ?? '';
  const counts = join(dirname(file), 'counts', `${pid}.json`);
  const role = existsSync(counts)
    ? z
        .object({ role: z.string() })
        .parse(JSON.parse(readFileSync(counts, 'utf8')))
        .role.replace(/^\S*\/work\/wt\/[^/]+\//, '')
    : undefined;
  console.log(`\n### ${labels.get(pid) ?? role ?? basename(file)}: ${total.toFixed(0)} ms profiled, ${(total - idle).toFixed(0)} ms busy`);
  const table = (title: string, m: Map<string, number>, skip: Set<string>) => {
    console.log(`\n${title}\n`);
    console.log('| ms | % of busy | function |\n|---:|---:|---|');
    for (const [k, v] of [...m]
      .filter(([k]) => !skip.has(k))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top))
      console.log(`| ${v.toFixed(0)} | ${((v / (total - idle)) * 100).toFixed(1)} | \`${k}\` |`);
  };
  table('Self time', self, new Set(['(idle)']));
  table('Inclusive time', inclusive, new Set(['(idle)', '(root)', '(program)', '(garbage collector)']));
}
