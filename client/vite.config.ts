import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { basemap } from './vite-basemap.ts';
import { precompress } from './vite-precompress.ts';

/** The API the dev server forwards to: the portal server of `npm run dev` (PORT 8080 by default). */
const API_TARGET = 'http://localhost:8080';

/**
 * @fleet/shared declares "sideEffects": false; this rule keeps that true for its source files even when
 * imported through the workspace link, so the client never ships the server's zod schemas it does not call.
 */
const SHARED_SOURCE = /[\\/]shared[\\/]src[\\/]/;

/** The page's entry (index.html's module and main.tsx): left out of the startup group, so it stays the entry chunk. */
const ENTRY = /[\\/]client[\\/](index\.html|src[\\/]main\.tsx)$/;

/** The field app's path: the service worker's scope and the manifest's start (the spec's /maintenance). */
const FIELD_APP = '/maintenance';

/**
 * index.html is every route's page (the map, /status, /maintenance-result...): the manifest link
 * vite-plugin-pwa writes into it would offer to install the portal's map as the field app. It is taken
 * out here; the /maintenance page adds it when it opens (pages/maintenance/pwa.ts).
 */
const manifestOnlyForTheFieldApp = (): Plugin => ({
  name: 'fleet:manifest-only-for-the-field-app',
  apply: 'build',
  enforce: 'post',
  transformIndexHtml: { order: 'post', handler: (html) => html.replace(/<link rel="manifest"[^>]*>/, '') },
});

/**
 * The field app (issue 44): vite-plugin-pwa's Workbox service worker, scoped to /maintenance, registered by
 * that page only (injectRegister false), updated on the technician's choice (registerType 'prompt').
 * - Precached: the app shell (index.html and the scripts and styles the page loads), never the map's
 *   libraries and basemap (megabytes the field app does not use) nor the .br/.gz twins.
 * - Navigations: only /maintenance (with a query: a label's ?device=) is answered from the cache; the
 *   scope is a path prefix, so /maintenance-result is inside it, and is let through to the network, as is
 *   every /api call (the app keeps its own data: IndexedDB).
 */
const fieldAppPwa = () =>
  VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    scope: FIELD_APP,
    base: '/',
    filename: 'sw.js',
    manifestFilename: 'manifest.webmanifest',
    includeAssets: ['maintenance-icons/*.png'],
    manifest: {
      id: FIELD_APP,
      name: 'Fleet Field App',
      short_name: 'Field App',
      description: "The technician's field app: the day's stops, scanning a device label, recording refills offline.",
      start_url: FIELD_APP,
      scope: FIELD_APP,
      display: 'standalone',
      orientation: 'portrait',
      background_color: '#ffffff',
      theme_color: '#1f6f8b',
      icons: [
        { src: '/maintenance-icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/maintenance-icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/maintenance-icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      globPatterns: ['index.html', 'assets/*.{js,css,woff2}', 'maintenance-icons/*.png'],
      globIgnores: ['**/*maplibre*', '**/*offline-map*', '**/*apexcharts*', '**/*basemap*', '**/*.br', '**/*.gz'],
      navigateFallback: '/index.html',
      navigateFallbackAllowlist: [/^\/maintenance\/?(\?.*)?$/],
      cleanupOutdatedCaches: true,
      // The new version waits for the technician's Reload (never mid-form): no skipWaiting here.
      clientsClaim: false,
    },
  });

export default defineConfig({
  // basemap: the offline map's basemap GeoJSON, made at build time (vite-basemap.ts).
  // precompress: .br and .gz beside each built text file, served as they are (server/src/lib/static-client.ts).
  plugins: [react(), basemap(), precompress(), fieldAppPwa(), manifestOnlyForTheFieldApp()],
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
      output: {
        // Every module the page loads at start in one chunk beside the entry ('$initial': statically
        // imported from it). Some client models start with a top-level await (shared/lib/yield-to-browser.ts),
        // and with one in the graph Rolldown stopped merging the modules the lazy chunks share with the entry
        // into it: the page asked for 16 scripts at start instead of 7, which Lighthouse's simulated mobile
        // network turned into about 150 ms more to the first paint. Now it asks for three (entry, runtime,
        // startup): the same 103 kB gzipped (tests/perf/login-bundle.ts).
        codeSplitting: {
          groups: [{ name: 'startup', tags: ['$initial'], test: (id) => !ENTRY.test(id) }],
        },
      },
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
