/**
 * Vitest global setup: names this run (FLEET_TEST_RUN, inherited by the workers it forks) so that its
 * workers can share files made once per run (tests/helpers/pglite-image.ts), and removes them after.
 * It makes nothing itself: a run of unit tests only pays nothing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where a run's shared files live. */
export const runImagesDir = (run: string) => path.join(os.tmpdir(), `fleet-pglite-images-${run}`);

export default function setup() {
  const run = process.env.FLEET_TEST_RUN ?? `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  process.env.FLEET_TEST_RUN = run;
  return () => fs.rmSync(runImagesDir(run), { recursive: true, force: true });
}
