import { defineConfig } from 'vitest/config';

const NODE_TESTS = ['shared/src/**/*.test.ts', 'server/src/**/*.test.ts', 'workers/src/**/*.test.ts', 'tests/**/*.test.ts'];
const CLIENT_TESTS = ['client/src/**/*.test.{ts,tsx}'];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    // Long enough for the longest browser tests on the slowest host of this machine class (a batch's whole
    // add, edit and delete walk took 60 s on a host 2.4 times slower than another of the same class).
    testTimeout: 150_000,
    // expect.poll waits up to 10 s unless a test says otherwise (Vitest's default is 1 s): in a loaded run a
    // browser's main thread, drawing the map on a software rasteriser, can take longer than that to show a
    // routed answer. Latency budgets are the benchmarks' business, not these waits'.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 180_000,
    // Three files at a time on two cores: several files wait more than they compute (the control dialog's
    // 1 s close timer, poll periods, a restarted process), so at two the cores were 1.6 busy on average and
    // at three 1.9 (`npx vitest run` 518 s -> 464 s on 2026-11-26, 1,421 tests passed both ways; the PGlite
    // databases fit easily in this machine's memory). `--maxWorkers` on the command line does not reach the
    // projects below; TEST_WORKERS does (`TEST_WORKERS=2 npm test`).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    // Names the run so its workers share one seeded PGlite image (tests/helpers/pglite-image.ts).
    globalSetup: ['tests/helpers/test-run.setup.ts'],
    reporters: ['default'],
    // Chart colours are read from the design tokens' stylesheet (tokens.css?raw): keep its text in tests.
    css: { include: [/tokens\.css/] },
    projects: [
      {
        extends: true,
        // The server, workers and browser-test files import the same server modules (tsx-transformed
        // TypeScript, zod schemas, the app). Without isolation a worker keeps them loaded from one file to
        // the next instead of importing them again for every file: on this 2-core machine `vitest run
        // tests/integration` went from 192 s to 152 s (import 37 s -> 5 s) and its CPU time fell by a third.
        // Each file still builds its own app, database and servers in its hooks; what modules keep at their
        // own level (caches, the metrics registry) is shared, and the whole suite passes that way.
        test: {
          name: 'node',
          include: NODE_TESTS,
          isolate: false,
          // Every answer of a declared endpoint is checked against its declaration (issue 45).
          setupFiles: ['tests/helpers/answer-check.setup.ts'],
        },
      },
      {
        extends: true,
        // The client's models are effector units built when their module is evaluated: without isolation a
        // worker keeps them from one file to the next, as the app keeps them in one page, and each test runs
        // in its own fork()ed scope. Importing the client again for every file took 20 s of both workers
        // (`vitest run --project client`: 20 s isolated, 5 s not). A test that counts calls must therefore
        // expect the other models loaded in the page to answer the same events (the dashboard's reconnect,
        // the brand form's re-reads).
        test: { name: 'client', include: CLIENT_TESTS, isolate: false },
        // vite-plugin-pwa's virtual module is made by the client build's plugin: a stand-in here.
        resolve: {
          alias: {
            'virtual:pwa-register': new URL('./client/src/pages/maintenance/lib/pwa-register.stub.ts', import.meta.url).pathname,
          },
        },
      },
    ],
  },
});
