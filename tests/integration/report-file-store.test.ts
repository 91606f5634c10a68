import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/src/db/client.ts';
import { reportFiles } from '../../server/src/db/schema.ts';
import { dbReportFileStore, type StoredReport } from '../../server/src/reports/report-file-store.ts';

/** The store behind "a report mailed to several addresses is built once" (server/src/reports/report-file-store.ts). */
describe('report file store', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(async () => {
    await database?.close();
  });

  const files = (n: number): StoredReport<{ n: number }> => ({
    summary: { n },
    xlsx: Buffer.from(`xlsx ${n}`),
    pdf: Buffer.from(`pdf ${n}`),
  });

  it('shares one build between callers in this process and in another (a second store), and keeps the bytes', async () => {
    let builds = 0;
    const build = async () => {
      builds += 1;
      await new Promise((r) => setTimeout(r, 100));
      return files(builds);
    };
    const a = dbReportFileStore(database.db, { pollMs: 10 });
    const b = dbReportFileStore(database.db, { pollMs: 10 });
    const got = await Promise.all([a.once('k-shared', build), a.once('k-shared', build), b.once('k-shared', build)]);
    expect(builds).toBe(1);
    for (const g of got) expect(g).toEqual(files(1));
    // Later (a retry): read back from the table, bytes intact.
    const later = await dbReportFileStore(database.db).once('k-shared', build);
    expect(builds).toBe(1);
    expect(later.pdf.equals(Buffer.from('pdf 1'))).toBe(true);
    expect(later.summary).toEqual({ n: 1 });
  });

  it('stores nothing when a build fails, so the next caller builds', async () => {
    const store = dbReportFileStore(database.db);
    await expect(store.once('k-fail', () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await database.db.select().from(reportFiles).where(eq(reportFiles.requestKey, 'k-fail'))).toHaveLength(0);
    expect(await store.once('k-fail', async () => files(7))).toEqual(files(7));
  });

  it('takes over the claim of a builder that stopped, after waiting while the claim is fresh', async () => {
    await database.db.insert(reportFiles).values({ requestKey: 'k-dead', claimedAt: new Date(Date.now() - 60_000) });
    expect(await dbReportFileStore(database.db, { staleAfterMs: 30_000 }).once('k-dead', async () => files(2))).toEqual(files(2));

    await database.db.insert(reportFiles).values({ requestKey: 'k-live' });
    const impatient = dbReportFileStore(database.db, { staleAfterMs: 200, pollMs: 20 });
    // A claim younger than staleAfterMs is waited on; once older it is taken over.
    let built = false;
    const started = Date.now();
    const got = await impatient.once('k-live', async () => {
      built = true;
      return files(3);
    });
    expect(built).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(got).toEqual(files(3));
  });
});
