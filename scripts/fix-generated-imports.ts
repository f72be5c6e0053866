// proto-loader-gen-types writes extensionless relative imports; ES modules under "nodenext" need ".ts".
import { readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
}
for (const file of walk('proto/generated').filter((f) => f.endsWith('.ts'))) {
  const src = readFileSync(file, 'utf8');
  writeFileSync(file, src.replace(/from '(\.{1,2}\/[^']+?)(?<!\.ts)'/g, "from '$1.ts'"));
}
