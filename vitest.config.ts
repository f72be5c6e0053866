import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', '{domain,adapters,lib,gateway,services,workers,scripts,client,bench}/**/*.test.ts'],
    // domain/ is handed the connectors' capabilities by each process; in the tests, by this setup file.
    setupFiles: ['test/setup-capabilities.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file starts its own processes; on a 2-core machine files run one after another.
    fileParallelism: false,
    reporters: ['default'],
  },
});
