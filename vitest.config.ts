import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', '{domain,lib,gateway,services,workers,scripts}/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file starts its own processes; on a 2-core machine files run one after another.
    fileParallelism: false,
    reporters: ['default'],
  },
});
