/**
 * The client's zod. `zod` resolves to this module in the client's build and dev server (vite.config.ts
 * alias), so every schema the browser builds, the shared package's included, is built after this config:
 * under the portal's Content-Security-Policy without 'unsafe-eval' (SECURITY.md) zod must neither probe
 * for eval (the probe counts as a violation) nor compile parsers with it.
 *
 * It replaces a config module that the entry imported first: that made zod (about 90 kB of script) part
 * of every first page load, although no schema is used before a form or a panel opens; now zod loads with
 * the first chunk that builds a schema.
 */
import { z } from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
