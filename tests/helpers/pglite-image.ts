/**
 * One migrated PGlite cluster per test run, seeded or not, that every test database opened in memory
 * starts from (openDatabase's `pgliteImage`). A new PGlite cluster costs about 3 s (initdb inside the
 * WASM build) plus the migrations and, for the demo fleet, about 1 s of seeding; a copy of a dumped one
 * opens in about 1 s. Over the suite's PGlite databases that is minutes of the run (issue 19: `npm test`
 * under 6 minutes).
 *
 * The image is made by the first worker that asks for it and shared through files in the temp folder,
 * named by the run (FLEET_TEST_RUN, set by tests/helpers/test-run.setup.ts, which removes them at the
 * end). A worker that finds another making it waits for its tarball. Without FLEET_TEST_RUN (a script
 * outside vitest) nothing is shared: the caller gets no image and makes its database the usual way.
 *
 * The seeded image is seeded when it is made, so its data is as old as the run (a few minutes at most):
 * the demo fleet's history reaches back days and devices lapse offline after hours, so no test tells.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../server/src/db/client.ts';
import { seedDemo } from '../../server/src/seed/demo.ts';
import { runImagesDir } from './test-run.setup.ts';

export type PgliteImage = { tarball: Blob; uploadsDir: string | null };

const cache = new Map<string, Promise<PgliteImage | null>>();

/** 'demo': migrated and seeded with the demo fleet (3 days of history), 'empty': migrated only. */
export function pgliteImage(kind: 'demo' | 'empty'): Promise<PgliteImage | null> {
  const run = process.env.FLEET_TEST_RUN;
  if (!run) return Promise.resolve(null);
  let image = cache.get(kind);
  if (!image) {
    image = loadOrMake(runImagesDir(run), kind);
    cache.set(kind, image);
  }
  return image;
}

async function loadOrMake(dir: string, kind: 'demo' | 'empty'): Promise<PgliteImage> {
  fs.mkdirSync(dir, { recursive: true });
  const tarball = path.join(dir, `${kind}.tar`);
  const uploadsDir = kind === 'demo' ? path.join(dir, `${kind}-uploads`) : null;
  const read = (): PgliteImage => ({ tarball: new Blob([fs.readFileSync(tarball)]), uploadsDir });
  if (fs.existsSync(tarball)) return read();
  let mine = false;
  try {
    fs.mkdirSync(path.join(dir, `${kind}.lock`));
    mine = true;
  } catch {
    /* another worker is making it */
  }
  if (mine) {
    const database = await openDatabase({});
    try {
      if (uploadsDir) await seedDemo(database, { uploadsDir, historyDays: 3 });
      const blob = await database.snapshot!();
      // Written under another name and renamed: a waiting worker never reads half a tarball.
      fs.writeFileSync(`${tarball}.part`, Buffer.from(await blob.arrayBuffer()));
      fs.renameSync(`${tarball}.part`, tarball);
    } finally {
      await database.close();
    }
    return read();
  }
  const deadline = Date.now() + 120_000;
  while (!fs.existsSync(tarball)) {
    if (Date.now() > deadline) throw new Error(`no PGlite image at ${tarball} after 120 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return read();
}
