#!/usr/bin/env node
// `npm test`'s pretest step (and .ci/run's): the browser tests drive Debian's Chromium and the PDF checks
// read reports with pdftotext (poppler-utils). When one is missing and this process may install packages
// (root, apt-get on PATH) it installs it, as .ci/run always did; otherwise it says how, and a missing
// Chromium stops the run here instead of failing every browser test one by one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

const missing = [];
if (!fs.existsSync(CHROMIUM))
  missing.push({ pkg: 'chromium', what: `Chromium (${CHROMIUM}) for the browser tests`, required: true });
if (!onPath('pdftotext'))
  missing.push({ pkg: 'poppler-utils', what: 'pdftotext (poppler-utils) for the PDF text checks', required: !!process.env.CI });
if (missing.length === 0) process.exit(0);

const pkgs = missing.map((m) => m.pkg);
const canInstall = process.getuid?.() === 0 && onPath('apt-get');
if (canInstall) {
  console.log(`installing Debian's ${pkgs.join(' and ')} for the tests (apt-get install -y ${pkgs.join(' ')})`);
  const install = () => spawnSync('apt-get', ['install', '-y', ...pkgs], { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  // A fresh machine has no package lists yet: read them once and try again.
  const installed =
    install() || (spawnSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0 && install());
  if (installed && fs.existsSync(CHROMIUM)) process.exit(0);
  console.error(
    installed ? `installed, but there is still no Chromium at ${CHROMIUM}.` : `apt-get could not install ${pkgs.join(' ')}.`,
  );
}

for (const m of missing) console.error(`${m.required ? 'missing' : 'note: missing'}: ${m.what}`);
console.error(
  [
    'Install them on Debian or Ubuntu with:',
    `  sudo apt-get install -y ${pkgs.join(' ')}`,
    'or point CHROMIUM_PATH at another Chromium or Chrome binary.',
    missing.some((m) => !m.required) ? 'Without pdftotext the PDF text checks are skipped (they fail under CI=true).' : '',
  ]
    .filter(Boolean)
    .join('\n'),
);
process.exit(missing.some((m) => m.required) ? 1 : 0);
