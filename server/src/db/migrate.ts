import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './client.ts';

type Journal = { entries: { idx: number; tag: string }[] };

/**
 * Applies the versioned migrations drizzle-kit wrote to server/drizzle, in journal order, each in its own
 * transaction, recording them in schema_migrations, then the current database functions (applyFunctions). A transaction-scoped advisory lock lets any number of
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
  await applyFunctions(database);
  return applied;
}

/**
 * The current body of every database function, one file each in server/src/db/functions/ (the migrations
 * keep the bodies they had when written; these replace them). Applied after the migrations on every start,
 * in one transaction under the migrations' lock: each file is CREATE OR REPLACE, so applying it again
 * changes nothing. Function bodies are not checked against each other while they are created (as pg_dump
 * does), so the files' order does not matter.
 *
 * To change a function, edit its file. A migration is still needed for what CREATE OR REPLACE cannot do
 * (a new signature or return type: DROP the old one there) and for the stored data a new body would compute
 * differently (compute device_list_answers again there with the new body).
 */
async function applyFunctions(database: Pick<Database, 'exec'>): Promise<void> {
  const folder = path.resolve(path.dirname(new URL(import.meta.url).pathname), 'functions');
  const bodies = fs
    .readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => fs.readFileSync(path.join(folder, file), 'utf8'));
  await database.exec(`
    BEGIN;
    SELECT pg_advisory_xact_lock(727274);
    SET LOCAL check_function_bodies = off;
    ${bodies.join('\n')}
    COMMIT;`);
}

function dollarQuote(body: string): string {
  let tag = 'm';
  while (body.includes(`$${tag}$`)) tag += 'm';
  return `$${tag}$${body}$${tag}$`;
}
