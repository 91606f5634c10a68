import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'server/src/**/*.test.ts', 'workers/src/**/*.test.ts', 'client/src/**/*.test.{ts,tsx}', 'tests/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // PGlite instances are large; two files at a time fit two cores.
    maxWorkers: 2,
    // Names the run so its workers share one seeded PGlite image (tests/helpers/pglite-image.ts).
    globalSetup: ['tests/helpers/test-run.setup.ts'],
    reporters: ['default'],
    // Chart colours are read from the design tokens' stylesheet (tokens.css?raw): keep its text in tests.
    css: { include: [/tokens\.css/] },
  },
});
