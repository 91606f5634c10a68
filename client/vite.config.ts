import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { basemap } from './vite-basemap.ts';
import { precompress } from './vite-precompress.ts';

/** The API the dev server forwards to: the portal server of `npm run dev` (PORT 8080 by default). */
const API_TARGET = 'http://localhost:8080';

/**
 * @fleet/shared declares "sideEffects": false; this rule keeps that true for its source files even when
 * imported through the workspace link, so the client never ships the server's zod schemas it does not call.
 */
const SHARED_SOURCE = /[\\/]shared[\\/]src[\\/]/;

export default defineConfig({
  // basemap: the offline map's basemap GeoJSON, made at build time (vite-basemap.ts).
  // precompress: .br and .gz beside each built text file, served as they are (server/src/lib/static-client.ts).
  plugins: [react(), basemap(), precompress()],
  resolve: {
    alias: [
      // MapLibre's CSP build: the same library, with its worker as a file of its own (offline-map.tsx).
      { find: /^maplibre-gl$/, replacement: 'maplibre-gl/dist/maplibre-gl-csp.js' },
      // zod configured for the CSP before any schema is built, wherever it is first imported (the module says why).
      { find: /^zod$/, replacement: fileURLToPath(new URL('./src/shared/lib/zod-jitless.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // .vite/manifest.json: tests/perf reads which files the login page loads.
    manifest: true,
    // MapLibre is one ~1 MB chunk by itself, loaded only after sign-in with the offline map.
    chunkSizeWarningLimit: 1100,
    rolldownOptions: {
      treeshake: {
        moduleSideEffects: (id) => (SHARED_SOURCE.test(id) ? false : undefined),
      },
    },
  },
  server: {
    proxy: {
      '/api': API_TARGET,
      '/auth': API_TARGET,
      '/uploads': API_TARGET,
      '/socket.io': { target: API_TARGET, ws: true },
    },
  },
});
