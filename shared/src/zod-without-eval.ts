import { z } from 'zod';

/**
 * Import first, before any schema exists: pages under a Content-Security-Policy without 'unsafe-eval'
 * (the portal's, SECURITY.md) need zod to neither probe for eval (the probe counts as a violation) nor
 * compile parsers with it. zod decides when a schema is built, so this runs before @fleet/shared loads.
 */
z.config({ jitless: true });
