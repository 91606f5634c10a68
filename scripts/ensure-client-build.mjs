#!/usr/bin/env node
// Before `npm start` and `npm test` (pretest): the server and the browser tests serve client/dist, so it
// must be a build of the current sources. Builds only when the sources changed since the last build
// (scripts/client-build.mjs: a hash of the client's inputs kept in client/dist/.build-hash), so an
// unchanged checkout starts at once; a fresh checkout, or one with changed sources, builds (a few
// seconds). CLIENT_DIST set means the caller built its own copy there: leave it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientBuildNeeded, clientSourceHash, recordClientBuild } from './client-build.mjs';

if (process.env.CLIENT_DIST) {
  console.log(`using the client built in ${process.env.CLIENT_DIST}`);
  process.exit(0);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'client', 'dist');
const hash = clientSourceHash(root);
// `npm run build` has just built client/dist: record which sources it was, so the next start or test run
// does not build the same sources again.
if (process.argv.includes('--record')) {
  recordClientBuild(dist, hash);
  process.exit(0);
}
const { build, reason } = clientBuildNeeded(dist, hash);
if (!build) {
  console.log(`client: ${reason}, client/dist is current (no build)`);
  process.exit(0);
}
console.log(`client: ${reason}, building client/dist...`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const result = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (result.status !== 0) {
  console.error('npm run build failed: the server and the browser tests need the built client (client/dist).');
  process.exit(result.status ?? 1);
}
// The hash of the sources as they were when the build started: an edit during the build rebuilds next time.
recordClientBuild(dist, hash);
console.log(`client: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
