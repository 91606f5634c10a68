#!/usr/bin/env node
// `npm test`'s pretest step: the browser tests serve the built client, so build it from the current
// sources (a few seconds) instead of testing whatever client/dist an earlier build left, or failing on a
// fresh checkout that has none. CLIENT_DIST set means the caller built its own copy there: leave it.
import { spawnSync } from 'node:child_process';

if (process.env.CLIENT_DIST) {
  console.log(`browser tests use the client built in ${process.env.CLIENT_DIST}`);
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) {
  console.error('npm run build failed: the browser tests need the built client (client/dist).');
  process.exit(build.status ?? 1);
}
