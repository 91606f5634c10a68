import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { basemap } from './vite-basemap.ts';
import { precompress } from './vite-precompress.ts';
import { sharedDeclarationsYield } from './vite-shared-yield.ts';

/** The API the dev server forwards to: the portal server of `npm run dev` (PORT 8080 by default). */
const API_TARGET = 'http://localhost:8080';

/**
 * @fleet/shared declares "sideEffects": false; this rule keeps that true for its source files even when
 * imported through the workspace link, so the client never ships the server's zod schemas it does not call.
 */
const SHARED_SOURCE = /[\\/]shared[\\/]src[\\/]/;

/** The pages' entries (each HTML's module): left out of the startup groups, so each stays its entry chunk. */
const ENTRY = /[\\/]client[\\/](index\.html|maintenance\.html|src[\\/]main\.tsx|src[\\/]maintenance-main\.tsx)$/;
/**
 * The field app's page and its entry module: what they load at start is its own startup chunk (the page
 * itself imports Vite's modulepreload polyfill, which would otherwise go to the portal's startup chunk and
 * take that chunk with it).
 */
const FIELD_ENTRIES = [
  fileURLToPath(new URL('./maintenance.html', import.meta.url)),
  fileURLToPath(new URL('./src/maintenance-main.tsx', import.meta.url)),
];

/** The field app's path: the service worker's scope and the manifest's start (the spec's /maintenance). */
const FIELD_APP = '/maintenance';

/**
 * index.html is the portal's page (the map, /status, /maintenance-result...): the manifest link
 * vite-plugin-pwa writes into it would offer to install the portal's map as the field app. It is taken
 * out of index.html here and kept in maintenance.html, the field app's own page (pages/maintenance/pwa.ts
 * adds it where it is missing: the dev server's /maintenance).
 */
const manifestOnlyForTheFieldApp = (): Plugin => ({
  name: 'fleet:manifest-only-for-the-field-app',
  apply: 'build',
  enforce: 'post',
  transformIndexHtml: {
    order: 'post',
    handler: (html, ctx) => (ctx.path.endsWith('maintenance.html') ? html : html.replace(/<link rel="manifest"[^>]*>/, '')),
  },
});

/** The dev server answers /maintenance with the field app's page, as the portal's server does (static-client.ts). */
const fieldAppPageInDev = (): Plugin => ({
  name: 'fleet:field-app-page-in-dev',
  apply: 'serve',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && /^\/maintenance\/?(\?.*)?$/.test(req.url))
        req.url = req.url.replace(/^\/maintenance\/?/, '/maintenance.html');
      next();
    });
  },
});

/**
 * The modules the field app's entry imports statically (its start), found by walking the module graph from
 * it: they go into a startup chunk of the field app's own, which the portal loads too (React, Effector, the
 * ui kit), so that the portal's startup chunk holds only what the field app does not load (issue 44: the
 * portal's startup code took about 1.9 s of the field app's offline start on a throttled phone). Walked once
 * per build process (the graph does not change within a build).
 */
type ModuleGraph = { getModuleInfo: (id: string) => { importedIds: readonly string[] } | null };
let fieldStart: Set<string> | null = null;
const fieldStartOf = (graph: ModuleGraph): Set<string> => {
  if (fieldStart) return fieldStart;
  fieldStart = new Set<string>();
  const todo = [...FIELD_ENTRIES];
  while (todo.length) {
    const next = todo.pop()!;
    if (fieldStart.has(next)) continue;
    fieldStart.add(next);
    todo.push(...(graph.getModuleInfo(next)?.importedIds ?? []));
  }
  return fieldStart;
};

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
      globPatterns: ['maintenance.html', 'assets/*.{js,css,woff2}', 'maintenance-icons/*.png'],
      globIgnores: ['**/*maplibre*', '**/*offline-map*', '**/*apexcharts*', '**/*basemap*', '**/*.br', '**/*.gz'],
      navigateFallback: '/maintenance.html',
      navigateFallbackAllowlist: [/^\/maintenance\/?(\?.*)?$/],
      cleanupOutdatedCaches: true,
      // The new version waits for the technician's Reload (never mid-form): no skipWaiting here.
      clientsClaim: false,
    },
  });

export default defineConfig({
  // basemap: the offline map's basemap GeoJSON, made at build time (vite-basemap.ts).
  // precompress: .br and .gz beside each built text file, served as they are (server/src/lib/static-client.ts).
  plugins: [
    react(),
    basemap(),
    precompress(),
    fieldAppPwa(),
    manifestOnlyForTheFieldApp(),
    fieldAppPageInDev(),
    sharedDeclarationsYield(),
  ],
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
      // Two pages: the portal (index.html) and the technician's field app (maintenance.html, app/field-app.tsx).
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)), maintenance: FIELD_ENTRIES[0]! },
      output: {
        // Every module the page loads at start in one chunk beside the entry ('$initial': statically
        // imported from it). Some client models start with a top-level await (shared/lib/yield-to-browser.ts),
        // and with one in the graph Rolldown stopped merging the modules the lazy chunks share with the entry
        // into it: the page asked for 16 scripts at start instead of 7, which Lighthouse's simulated mobile
        // network turned into about 150 ms more to the first paint. Now it asks for three (entry, runtime,
        // startup): the same 103 kB gzipped (tests/perf/login-bundle.ts).
        // The field app's start is a group of its own, taken first (fieldStartOf above): its page loads entry,
        // runtime and field-start; the portal's page loads those and startup (four scripts).
        codeSplitting: {
          groups: [
            {
              name: (id, ctx) => (!ENTRY.test(id) && fieldStartOf(ctx).has(id) ? 'field-start' : null),
              tags: ['$initial'],
              priority: 2,
            },
            { name: 'startup', tags: ['$initial'], test: (id) => !ENTRY.test(id), priority: 1 },
          ],
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
