import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, quoteIdent } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { postgresAvailable, TEST_DATABASE_URL } from '../helpers/backends.ts';

const pgUp = await postgresAvailable();
const MIGRATIONS = JSON.parse(fs.readFileSync('server/drizzle/meta/_journal.json', 'utf8')).entries.length as number;

describe('migrations', () => {
  it('apply once on PGlite and are a no-op the second time', async () => {
    const db = await openDatabase({});
    try {
      await migrate(db);
      const res = (await db.db.execute('select count(*)::int as n from schema_migrations' as never)) as unknown as {
        rows: { n: number }[];
      };
      expect(res.rows[0]!.n).toBe(MIGRATIONS);
    } finally {
      await db.close();
    }
  });

  it.skipIf(!pgUp)('are safe when several servers start at once on PostgreSQL', async () => {
    const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
    const opened = await Promise.all([1, 2, 3].map(() => openDatabase({ url: TEST_DATABASE_URL, schema })));
    const client = new pg.Client(TEST_DATABASE_URL);
    await client.connect();
    try {
      const tables = await client.query(`select count(*)::int as n from information_schema.tables where table_schema = $1`, [
        schema,
      ]);
      expect(tables.rows[0].n).toBeGreaterThanOrEqual(20);
      const applied = await client.query(`select count(*)::int as n from ${quoteIdent(schema)}.schema_migrations`);
      expect(applied.rows[0].n).toBe(MIGRATIONS);
      // Nothing leaked into public.
      const leaked = await client.query(
        `select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name = 'devices'`,
      );
      expect(leaked.rows[0].n).toBe(0);
    } finally {
      await client.query(`drop schema ${quoteIdent(schema)} cascade`);
      await client.end();
      await Promise.all(opened.map((d) => d.close()));
    }
  });
});
