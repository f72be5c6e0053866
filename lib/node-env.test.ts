import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_ENV_SETTINGS, parseEnvFile, withNodeSettings } from './node-env.ts';

describe('node runtime settings (deploy/node.env)', () => {
  it('are the ones the Dockerfile sets for every container', () => {
    const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
    const env = Object.fromEntries(
      [...dockerfile.matchAll(/^ENV (.+)$/gm)].flatMap((m) =>
        [...m[1].matchAll(/([A-Z_][A-Z0-9_]*)=("[^"]*"|\S+)/g)].map((p) => [p[1], p[2].replace(/^"(.*)"$/, '$1')]),
      ),
    );
    expect(Object.keys(NODE_ENV_SETTINGS).length).toBeGreaterThan(0);
    for (const [k, v] of Object.entries(NODE_ENV_SETTINGS)) expect(env[k], k).toBe(v);
  });

  it('keep the options a caller already gives node, and are not repeated', () => {
    const once = withNodeSettings({ NODE_OPTIONS: '--import=./preload.mjs', PATH: '/bin' });
    expect(once.NODE_OPTIONS).toBe(`--import=./preload.mjs ${NODE_ENV_SETTINGS.NODE_OPTIONS}`);
    expect(once.PATH).toBe('/bin');
    expect(withNodeSettings(once).NODE_OPTIONS).toBe(once.NODE_OPTIONS);
    expect(withNodeSettings({}).NODE_OPTIONS).toBe(NODE_ENV_SETTINGS.NODE_OPTIONS);
  });

  it('leave a setting the caller gives itself', () => {
    expect(withNodeSettings({ V8_HEAP_GROWING_PERCENT: '0' }).V8_HEAP_GROWING_PERCENT).toBe('0');
    expect(withNodeSettings({}).V8_HEAP_GROWING_PERCENT).toBe(NODE_ENV_SETTINGS.V8_HEAP_GROWING_PERCENT);
  });

  it('parses KEY=value lines, skipping comments, removing quotes', () => {
    expect(parseEnvFile('# c\nA="x y"\n\nB=2\nnot a line\n')).toEqual({ A: 'x y', B: '2' });
  });
});
