import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * Each of shared's schema and API-declaration modules evaluated in a task of its own in the built pages: a
 * top-level `await yieldToBrowser()` is put before its body (the same step the client's heavier model modules
 * start with, shared/lib/yield-to-browser.ts). Building the zod schemas those modules declare was one
 * start-up task of 860-1,030 ms under Lighthouse's 4x CPU slowdown on a slow host (`/healthz` 3,800 req/s,
 * tests/perf/map-trace.ts: zod's $constructor and init), for the sign-in page as for the map, and Lighthouse
 * counts every millisecond of a task over 50 as blocking. shared itself stays free of browser code (the server
 * imports the same files): the step is added here, in the client's build only. Inserted on the first line,
 * so the lines of the source map still match.
 */
const SHARED_DECLARATIONS = /[\\/]shared[\\/]src[\\/](schemas|api)[\\/][^\\/]+(?<!\.test)\.ts$/;
const YIELD_MODULE = fileURLToPath(new URL('./src/shared/lib/yield-to-browser.ts', import.meta.url));
export function sharedDeclarationsYield(): Plugin {
  return {
    name: 'fleet:shared-declarations-yield',
    apply: 'build',
    transform(code, id) {
      if (!SHARED_DECLARATIONS.test(id)) return null;
      return {
        code: `import { yieldToBrowser as __yieldToBrowser } from ${JSON.stringify(YIELD_MODULE)}; await __yieldToBrowser(); ${code}`,
        map: null,
      };
    },
  };
}
