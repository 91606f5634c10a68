import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';

/** Vite names everything under assets/ by content hash: a changed file gets a new name, so a copy never goes stale. */
const HASHED_DIR = 'assets';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files outside assets/ (favicon, robots.txt...) keep their names across builds: cached briefly. */
const SHORT = 'public, max-age=3600';
/**
 * The field app's service worker and manifest keep their names and must be checked on every load: a
 * cached sw.js would keep phones on an old version (the browser caps a worker's cache at 24 h, still a
 * shift on the old app); the manifest names the icons and scope.
 */
const REVALIDATED = new Set(['/index.html', '/maintenance.html', '/sw.js', '/manifest.webmanifest']);

/** The built pages, served by the routes below (not as compressed twins): they name the current hashes. */
const PAGES = new Set(['/index.html', '/maintenance.html']);

/** Encodings the build writes beside each asset (client/build/precompress.ts), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

function walk(dir: string, root = dir, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, root, out);
    else out.push('/' + path.relative(root, full).split(path.sep).join('/'));
  }
  return out;
}

/**
 * The best of `available` (listed best first) that the caller accepts. Browsers list gzip before br
 * with equal weight ("gzip, deflate, br, zstd"), and `req.acceptsEncodings` would then pick gzip by the
 * caller's order: here equal weights go to the smaller brotli file.
 */
export function preferred<T extends { name: string }>(header: string | undefined, available: readonly T[]): T | undefined {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  let best: T | undefined;
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = weights.get(encoding.name) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [encoding, weight];
  }
  return best;
}

/**
 * Serves the built client:
 * - hashed assets with a year's `immutable` cache (the browser never asks again);
 * - the .br or .gz the build wrote beside a file when the caller accepts it, so nothing is compressed
 *   per request (and brotli at its best quality, too slow to run per request, is used);
 * - index.html (every client route, the SPA fallback) with `no-cache`: it names the current hashes, so
 *   it is revalidated on each load and a new build is picked up at once.
 * The set of precompressed files is read once at start: the build directory does not change under a
 * running server.
 */
export function staticClient(clientDir: string): Router {
  const files = new Set(walk(clientDir));
  const cacheControl = (urlPath: string) =>
    REVALIDATED.has(urlPath) ? 'no-cache' : urlPath.startsWith(`/${HASHED_DIR}/`) ? IMMUTABLE : SHORT;
  const router = Router();

  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    if (!files.has(urlPath) || PAGES.has(urlPath)) return next();
    const available = ENCODINGS.filter((e) => files.has(urlPath + e.suffix));
    if (available.length === 0) return next();
    res.vary('Accept-Encoding');
    const encoding = preferred(req.headers['accept-encoding'], available);
    if (!encoding) return next();
    // The type of the original file, not of '.br'; send keeps a Content-Type already set.
    res.type(path.extname(urlPath));
    res.set('Content-Encoding', encoding.name);
    res.sendFile(
      path.join(clientDir, urlPath + encoding.suffix),
      { headers: { 'Cache-Control': cacheControl(urlPath) }, cacheControl: false, dotfiles: 'deny' },
      (err) => {
        if (err) next(err);
      },
    );
  });

  router.use(
    express.static(clientDir, {
      index: false,
      cacheControl: false,
      setHeaders: (res, file) => {
        const urlPath = '/' + path.relative(clientDir, file).split(path.sep).join('/');
        res.set('Cache-Control', cacheControl(urlPath));
      },
    }),
  );

  const index = path.join(clientDir, 'index.html');
  // The technician's field app is a page of its own (client/maintenance.html: it loads none of the portal's
  // start); a build without it (an older one) answers with the portal's page, whose routes still hold it.
  const fieldApp = files.has('/maintenance.html') ? path.join(clientDir, 'maintenance.html') : index;
  router.get(/^\/maintenance\/?$/, (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(fieldApp);
  });
  // Every other client route (/, /maintenance-result, /status, ...) is the portal's single-page app.
  router.get(/^\/(?!api\/|auth\/|uploads\/).*/, (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(index);
  });
  return router;
}
