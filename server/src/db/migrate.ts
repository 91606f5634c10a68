import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './client.ts';

type Journal = { entries: { idx: number; tag: string }[] };

/**
 * Applies the versioned migrations drizzle-kit wrote to server/drizzle, in journal order, each in its own
 * transaction, recording them in schema_migrations. A transaction-scoped advisory lock lets any number of
 * servers start at once against one PostgreSQL. Table names are left unqualified (drizzle-kit writes
 * "public".x in foreign keys; that prefix is dropped) so the connection's search_path picks the schema.
 */
export async function migrate(database: Pick<Database, 'exec' | 'db'>): Promise<string[]> {
  const folder = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../drizzle');
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as Journal;
  // Under the lock too: CREATE ... IF NOT EXISTS is not safe against a concurrent twin.
  await database.exec(`
    BEGIN;
    SELECT pg_advisory_xact_lock(727274);
    CREATE TABLE IF NOT EXISTS schema_migrations (tag text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
    COMMIT;`);
  const applied: string[] = [];
  for (const entry of [...journal.entries].sort((a, b) => a.idx - b.idx)) {
    const body = fs
      .readFileSync(path.join(folder, `${entry.tag}.sql`), 'utf8')
      .replaceAll('"public".', '')
      .split('--> statement-breakpoint')
      .join('\n');
    const tag = entry.tag.replaceAll("'", "''");
    // One transaction: take the lock, skip if already applied, apply, record.
    await database.exec(`
      BEGIN;
      SELECT pg_advisory_xact_lock(727274);
      DO $migration$
      BEGIN
        IF NOT EXISTS (SELECT 1 FROM schema_migrations WHERE tag = '${tag}') THEN
          EXECUTE ${dollarQuote(body)};
          INSERT INTO schema_migrations (tag) VALUES ('${tag}');
        END IF;
      END
      $migration$;
      COMMIT;`);
    applied.push(entry.tag);
  }
  return applied;
}

function dollarQuote(body: string): string {
  let tag = 'm';
  while (body.includes(`$${tag}$`)) tag += 'm';
  return `$${tag}$${body}$${tag}$`;
}
