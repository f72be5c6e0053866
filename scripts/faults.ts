// `npm run faults`: the fault campaign (scripts/faults/campaign.ts) on a stack of its own; prints the table and writes
// it to bench/results/faults-<date>.md. Exits 1 when a cell that must be zero is not.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_OPTIONS, SCENARIOS, failures, runCampaign, startCampaignStack, table, type CampaignOptions } from './faults/campaign.ts';

const { values: a } = parseArgs({
  options: {
    per: { type: 'string' },
    concurrency: { type: 'string' },
    kills: { type: 'string' },
    'recovery-s': { type: 'string' },
    only: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  allowPositionals: false,
});
if (a.help) {
  console.log(`usage: npm run faults [-- --per=N --concurrency=N --kills=N --recovery-s=N --only=<scenario substring,...>]
  --per          operations of each kind (${DEFAULT_OPTIONS.perOperation}) per scenario; 6 kinds: confirm, capture, partial capture, cancel,
                 incremental authorization, refund
  --concurrency  merchant requests in flight (${DEFAULT_OPTIONS.concurrency})
  --kills        kill -9 (or provider storms) per scenario (${DEFAULT_OPTIONS.kills})
  --recovery-s   how long accepted operations have to become final after the work (${DEFAULT_OPTIONS.recoveryMs / 1000})
  --only         scenarios: ${SCENARIOS.map((s) => s.name).join('; ')}
env: FAULTS_REDIS_DB (the Redis database the campaign's stack uses and flushes; default: the first empty of 15..8),
     MONGODB_URL, REDIS_URL`);
  process.exit(0);
}
const int = (v: string | undefined, fallback: number, name: string) => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got ${v}`);
  return n;
};
const opts: CampaignOptions = {
  ...DEFAULT_OPTIONS,
  perOperation: Math.max(1, int(a.per, DEFAULT_OPTIONS.perOperation, 'per')),
  concurrency: Math.max(1, int(a.concurrency, DEFAULT_OPTIONS.concurrency, 'concurrency')),
  kills: int(a.kills, DEFAULT_OPTIONS.kills, 'kills'),
  recoveryMs: int(a['recovery-s'], DEFAULT_OPTIONS.recoveryMs / 1000, 'recovery-s') * 1000,
  only: (a.only ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
  log: (line) => console.log(line),
};

const started = new Date();
const t0 = Date.now();
const campaign = await startCampaignStack();
let results: Awaited<ReturnType<typeof runCampaign>>;
try {
  console.log(
    `fault campaign: ${opts.perOperation} of each operation per scenario, concurrency ${opts.concurrency}, ${opts.kills} faults per scenario, recovery window ${opts.recoveryMs / 1000} s, Redis database ${campaign.redis.db}`,
  );
  results = await runCampaign(campaign, opts);
} finally {
  await campaign.stop();
}
const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const bad = failures(results);
const md = [
  `# Fault campaign ${started.toISOString()}`,
  '',
  `commit ${commit} · ${os.cpus().length} CPU · node ${process.version} · ${opts.perOperation} of each operation per scenario · concurrency ${opts.concurrency} · ${opts.kills} faults per scenario · recovery window ${opts.recoveryMs / 1000} s · ${((Date.now() - t0) / 1000).toFixed(0)} s in all`,
  '',
  'Columns: see docs/decisions.md "Fault campaign (issue 14)". lost: accepted but not final within the recovery window; refused: sent but never accepted;',
  'twice (provider): an idempotency key carried out twice by the provider, or two authorizations for one payment; twice (our log): the same transition of one',
  "operation recorded twice; provider disagrees: the provider's amounts or state differ from ours once final; 5xx to clients: per scenario, on its first row.",
  '',
  table(results),
  '',
  ...results.map((r) => `- ${r.scenario}: ${r.skipped ?? `${r.seconds.toFixed(0)} s`}`),
  '',
  bad.length ? `**Not zero:**\n${bad.map((b) => `- ${b}`).join('\n')}` : 'Every cell that must be zero is zero.',
  '',
  ...results
    .filter((r) => r.notes.length)
    .flatMap((r) => [
      `## Notes: ${r.scenario}`,
      '',
      ...r.notes.slice(0, 40).map((n) => `- ${n}`),
      ...(r.notes.length > 40 ? [`- ... and ${r.notes.length - 40} more`] : []),
      '',
    ]),
].join('\n');
const dir = fileURLToPath(new URL('../bench/results/', import.meta.url));
mkdirSync(dir, { recursive: true });
const file = `${dir}faults-${started.toISOString().slice(0, 10)}.md`;
writeFileSync(file, md);
console.log(`\n${md}\n\nwritten to ${file}`);
process.exit(bad.length ? 1 : 0);
