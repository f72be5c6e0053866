// Imported first by every process's main module (issue 24: memory). V8 lets the old generation grow to up to 4 times
// the live heap after each full collection when the machine has memory to spare (MemoryController's growing factor),
// so a process whose live heap is about 70 MB kept 270-300 MB after a burst. `V8_HEAP_GROWING_PERCENT` (deploy/node.env)
// fixes that factor at 1 + percent/100. It is set here because node refuses `--heap-growing-percent` in NODE_OPTIONS;
// the flag is read at every collection, so setting it at start is the same as on the command line. 0 or unset: V8's own.
import { setFlagsFromString } from 'node:v8';

export function heapGrowingFlag(env: Record<string, string | undefined>): string | null {
  const raw = env.V8_HEAP_GROWING_PERCENT;
  if (raw === undefined || raw === '' || raw === '0') return null;
  const percent = Number(raw);
  if (!Number.isInteger(percent) || percent < 10 || percent > 300)
    throw new Error(`V8_HEAP_GROWING_PERCENT must be an integer from 10 to 300 (or 0 for V8's own), not "${raw}"`);
  return `--heap-growing-percent=${percent}`;
}

const flag = heapGrowingFlag(process.env);
if (flag) setFlagsFromString(flag);
