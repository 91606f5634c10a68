// Whether client/dist is a build of the current client sources: `npm start` and `npm test`'s pretest
// (scripts/ensure-client-build.mjs) build the client only when it is not. The hash covers what the
// build reads: the client's sources and config, the shared package it bundles (shared/src), and the
// lockfile (dependency versions). A build writes it into client/dist/.build-hash; a dist without that
// file (an older build, a build by hand) counts as stale, so the first start after this change builds.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const HASH_FILE = '.build-hash';

/** Files and folders (relative to the repository) whose content decides the build. */
export const CLIENT_BUILD_INPUTS = [
  'client/src',
  'client/index.html',
  'client/maintenance.html',
  'client/public',
  'client/vite.config.ts',
  'client/vite-precompress.ts',
  'client/vite-basemap.ts',
  'client/vite-shared-yield.ts',
  'client/package.json',
  'shared/src',
  'shared/package.json',
  'tsconfig.json',
  'package-lock.json',
];

function filesUnder(root, rel, out) {
  const full = path.join(root, rel);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return; // an optional input that does not exist (client/public)
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      filesUnder(root, path.posix.join(rel, name), out);
    }
  } else if (stat.isFile()) out.push(rel);
}

/** sha256 over each input file's path and content, in a fixed order. */
export function clientSourceHash(root, inputs = CLIENT_BUILD_INPUTS) {
  const files = [];
  for (const input of inputs) filesUnder(root, input, files);
  const hash = crypto.createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The decision: build unless the dist has an index.html and the hash of the sources it was built from. */
export function clientBuildNeeded(dist, hash) {
  if (!fs.existsSync(path.join(dist, 'index.html'))) return { build: true, reason: 'no build yet' };
  let built;
  try {
    built = fs.readFileSync(path.join(dist, HASH_FILE), 'utf8').trim();
  } catch {
    return { build: true, reason: 'built from unknown sources' };
  }
  return built === hash ? { build: false, reason: 'sources unchanged' } : { build: true, reason: 'sources changed' };
}

export function recordClientBuild(dist, hash) {
  fs.writeFileSync(path.join(dist, HASH_FILE), `${hash}\n`);
}
