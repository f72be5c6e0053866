// The runtime settings every node process of the service starts with (deploy/node.env, issue 24: memory): one list,
// read by the supervisor (scripts/start.ts) and the test stack (test/support/stack.ts); the Dockerfile sets the same
// values as ENV (lib/node-env.test.ts checks they agree).
import { readFileSync } from 'node:fs';

const FILE = new URL('../deploy/node.env', import.meta.url);

/** KEY=value lines of an env file (comments and blank lines skipped, one pair of surrounding quotes removed). */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2].replace(/^"(.*)"$/, '$1');
  }
  return out;
}

export const NODE_ENV_SETTINGS: Readonly<Record<string, string>> = parseEnvFile(readFileSync(FILE, 'utf8'));

/**
 * `env` with the settings added where it does not set them itself (as `docker run -e` overrides an image's ENV), and
 * NODE_OPTIONS after any the caller already has (a profiler's --import stays).
 */
export function withNodeSettings<E extends Record<string, string | undefined>>(env: E): E & Record<string, string> {
  const { NODE_OPTIONS: options = '', ...rest } = NODE_ENV_SETTINGS;
  const had = env.NODE_OPTIONS ?? '';
  return { ...rest, ...env, NODE_OPTIONS: had.includes(options) ? had : [had, options].filter(Boolean).join(' ') } as E & Record<string, string>;
}
