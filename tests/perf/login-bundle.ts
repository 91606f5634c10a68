/**
 * The login page's initial JavaScript, gzipped (budget 250 kB; the map libraries load after sign-in).
 * Two measures: the static import graph of the entry in Vite's build manifest, and the scripts a real
 * Chromium downloads to show the login page. Run: npm run build -w client && npx tsx tests/perf/login-bundle.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/browser.ts';
import { CLIENT_DIST, startPortal } from '../e2e/server.ts';

export const LOGIN_JS_BUDGET_GZIP = 250 * 1024;

type ManifestChunk = { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[]; isEntry?: boolean };

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(CLIENT_DIST, file)), { level: 9 }).length;
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function staticGraph(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const next of manifest[key]?.imports ?? []) staticGraph(manifest, next, seen);
  return seen;
}

const manifestPath = path.join(CLIENT_DIST, '.vite', 'manifest.json');
if (!fs.existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build -w client\` first`);
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
// The portal's page (maintenance.html, the field app, is an entry of its own).
const entry = manifest['index.html']?.isEntry ? 'index.html' : Object.keys(manifest).find((key) => manifest[key]!.isEntry);
if (!entry) throw new Error('The manifest has no entry chunk');

const initialFiles = [...staticGraph(manifest, entry)].map((key) => manifest[key]!.file);
const manifestJs = initialFiles.reduce((sum, file) => sum + gzipSize(file), 0);
console.log('Login page, static import graph of the entry (Vite manifest):');
for (const file of initialFiles) console.log(`  ${file.padEnd(44)} ${kB(gzipSize(file)).padStart(10)} gzip`);
console.log(`  total JS ${kB(manifestJs)} gzip`);

// What a browser really downloads before the login form is usable.
const portal = await startPortal();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ baseURL: portal.baseURL });
  const scripts = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) scripts.add(url.pathname.slice(1));
  });
  await page.goto('/', { waitUntil: 'networkidle' });
  await page.getByRole('tab', { name: 'SIGN IN' }).waitFor();
  const loaded = [...scripts];
  const loadedJs = loaded.reduce((sum, file) => sum + gzipSize(file), 0);
  console.log(`\nLogin page in Chromium: ${loaded.length} script(s) downloaded`);
  for (const file of loaded) console.log(`  ${file.padEnd(44)} ${kB(gzipSize(file)).padStart(10)} gzip`);
  console.log(`  total JS ${kB(loadedJs)} gzip`);
  const worst = Math.max(manifestJs, loadedJs);
  console.log(
    `\nRESULT login initial JS ${kB(worst)} gzip (budget ${kB(LOGIN_JS_BUDGET_GZIP)}): ${worst <= LOGIN_JS_BUDGET_GZIP ? 'within budget' : 'OVER BUDGET'}`,
  );
  if (loaded.some((file) => /maplibre|offline-map|google-map|socket/i.test(file)))
    console.log('WARNING: a map or socket chunk loaded on the login page');
  process.exitCode = worst <= LOGIN_JS_BUDGET_GZIP ? 0 : 1;
} finally {
  await browser.close();
  await portal.close();
}
