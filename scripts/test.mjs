#!/usr/bin/env node
/**
 * `npm test`: the type check and every test, side by side rather than one after the other (the type
 * check is 27-33 s of one core from scratch, about 5 s incrementally; the tests spend much of their time
 * waiting on browsers, timers and sockets). The type check's output is held and printed after the tests' so the two do not interleave;
 * the run fails when either fails. Arguments go to vitest (`npm test -- tests/e2e/map.test.ts`).
 */
import { spawn } from 'node:child_process';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

const typecheck = new Promise((resolve) => {
  const started = Date.now();
  // Incremental, its state kept in node_modules/.cache (not in the repository): a run after one that checked
  // the same sources takes about 5 s instead of 27-33 s alone on this machine class, and a change re-checks
  // only what depends on it (one in shared/src/index.ts: everything). A clean checkout (CI) checks it all.
  const child = spawn(
    bin('tsc'),
    ['-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', 'node_modules/.cache/fleet-tsc/tsbuildinfo'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.on('close', (code) => resolve({ code: code ?? 1, out, seconds: (Date.now() - started) / 1000 }));
});

const tests = new Promise((resolve) => {
  const child = spawn(bin('vitest'), ['run', ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('close', (code) => resolve(code ?? 1));
});

const [checked, tested] = await Promise.all([typecheck, tests]);
console.log(`\ntype check (tsc --noEmit, ${checked.seconds.toFixed(0)} s): ${checked.code === 0 ? 'no errors' : 'FAILED'}`);
if (checked.out.trim()) console.log(checked.out.trimEnd());
process.exit(checked.code !== 0 ? checked.code : tested);
