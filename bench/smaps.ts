// A process's memory from /proc/<pid>/smaps_rollup (Linux 4.14+). Rss counts every page the process maps, a page
// shared with other processes (node's own code, mapped by each of the stack's processes) whole in each of them; Pss
// divides each shared page among the processes that map it, so that the sum of Pss over processes is what they take
// from the machine together. The bench's memory scenario reports both (bench/README.md, "Memory").
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { round } from './measure.ts';

const mb = z.number().nonnegative();
export const ProcessMemory = z.object({
  rss_mb: mb,
  pss_mb: mb,
  pss_anon_mb: mb,
  pss_file_mb: mb,
  shared_clean_mb: mb,
  shared_dirty_mb: mb,
  private_dirty_mb: mb,
});
export type ProcessMemory = z.infer<typeof ProcessMemory>;

/** The fields read, by their name in smaps_rollup. */
const FIELDS = new Map<string, keyof ProcessMemory>([
  ['Rss', 'rss_mb'],
  ['Pss', 'pss_mb'],
  ['Pss_Anon', 'pss_anon_mb'],
  ['Pss_File', 'pss_file_mb'],
  ['Shared_Clean', 'shared_clean_mb'],
  ['Shared_Dirty', 'shared_dirty_mb'],
  ['Private_Dirty', 'private_dirty_mb'],
]);

/** The fields of an smaps_rollup text, in MB (one decimal); throws when one is missing. */
export function parseSmapsRollup(text: string): ProcessMemory {
  const found: Record<string, number> = {};
  for (const [, name, kb] of text.matchAll(/^(\w+):\s+(\d+) kB$/gm)) {
    const key = FIELDS.get(name);
    if (key) found[key] = round(Number(kb) / 1024, 1);
  }
  return ProcessMemory.parse(found);
}

/** The memory of process `pid` now (throws ENOENT or ESRCH if it is gone). */
export const processMemory = (pid: number): ProcessMemory => parseSmapsRollup(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
