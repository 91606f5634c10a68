import fs from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema.ts';
import { migrate } from './migrate.ts';
import { markConnectError } from '../lib/errors.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL (several statements allowed); used by migrations and bulk seeding. */
  exec(text: string): Promise<void>;
  /** Answers when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** PGlite only: the whole cluster as a tarball (PGlite's dumpDataDir), to open again with `pgliteImage`. */
  snapshot?(): Promise<Blob>;
};

export type DatabaseOptions = {
  /** postgres://... ; without it an embedded PGlite database is used. */
  url?: string | undefined;
  /** Directory for PGlite's files; in memory when omitted. */
  dataDir?: string | undefined;
  /** PostgreSQL schema to live in (tests isolate themselves this way); default public. */
  schema?: string | undefined;
  migrate?: boolean;
  /**
   * PGlite in memory only: start from this cluster (a `snapshot()` of another database) instead of a new
   * one. Tests open a migrated, seeded database this way in about a second instead of creating (initdb,
   * about 3 s), migrating and seeding one each time (tests/helpers/pglite-image.ts).
   */
  pgliteImage?: Blob | undefined;
};

/**
 * Opens the database: PostgreSQL when a URL is given, else PGlite (the same PostgreSQL, embedded).
 * The same migrations and the same SQL run on both.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  let database: Database;
  if (opts.url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const searchPath = opts.schema ? `-c search_path=${quoteIdent(opts.schema)}` : undefined;
    // A connection that cannot be made within 5 s fails the request (503, lib/errors.ts) instead of
    // leaving it waiting on an unreachable server.
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: 10,
      connectionTimeoutMillis: 5000,
      Client: connectMarkingClient(pg.Client),
      ...(searchPath ? { options: searchPath } : {}),
    });
    pool.on('error', () => {
      /* a dropped idle connection is replaced on next use; readyz reports the outage */
    });
    if (opts.schema) {
      const c = await pool.connect();
      try {
        await c.query(
          `BEGIN; SELECT pg_advisory_xact_lock(727274); CREATE SCHEMA IF NOT EXISTS ${quoteIdent(opts.schema)}; COMMIT;`,
        );
      } finally {
        c.release();
      }
    }
    const db = drizzle(pool, { schema }) as unknown as Db;
    database = {
      db,
      kind: 'postgres',
      exec: async (text) => {
        // One connection for the whole text, rolled back on failure so no pooled connection is left
        // inside an aborted transaction.
        const c = await pool.connect();
        try {
          await c.query(text);
        } catch (err) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          c.release();
        }
      },
      ping: async () => {
        try {
          await pool.query('select 1');
          return true;
        } catch {
          return false;
        }
      },
      close: () => pool.end(),
    };
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const releaseLock = opts.dataDir ? lockDataDir(opts.dataDir) : () => undefined;
    let client: InstanceType<typeof PGlite>;
    try {
      // A new cluster is created (initdb), closed and opened again: initdb leaves ~350 MB of WASM memory
      // behind that a process serving from the files never needs (measured: 797 MB after initdb, 436 MB
      // reopened in the same process, 295 MB opening existing files in a new one).
      if (opts.dataDir && !fs.existsSync(path.join(opts.dataDir, 'PG_VERSION'))) {
        await (await PGlite.create(opts.dataDir)).close();
      }
      // pg_trgm serves the device search's index (migration 0022), as on PostgreSQL: PGlite loads an
      // extension's code only when asked at start.
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      const extensions = { pg_trgm };
      client =
        opts.pgliteImage && !opts.dataDir
          ? await PGlite.create({ loadDataDir: opts.pgliteImage, extensions })
          : await PGlite.create({ ...(opts.dataDir ? { dataDir: opts.dataDir } : {}), extensions });
    } catch (err) {
      releaseLock();
      throw err;
    }
    const db = drizzle(client, { schema }) as unknown as Db;
    let closed = false;
    database = {
      db,
      kind: 'pglite',
      exec: async (text) => {
        try {
          await client.exec(text);
        } catch (err) {
          await client.exec('ROLLBACK').catch(() => undefined);
          throw err;
        }
      },
      ping: async () => {
        if (closed) return false;
        try {
          await client.query('select 1');
          return true;
        } catch {
          return false;
        }
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await client.close();
        releaseLock();
      },
      snapshot: () => client.dumpDataDir('none'),
    };
  }
  if (opts.migrate !== false) await migrate(database);
  return database;
}

/**
 * PGlite is one process's database: a second process on the same files would corrupt them. A lock file
 * holding the owner's pid refuses that with a clear message (a stale lock of a dead process is taken over).
 */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, '..', `${path.basename(dir)}.lock`);
  try {
    const pid = Number(fs.readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new Error(`The embedded database in ${dir} is in use by process ${pid}. Stop it, or set DATA_DIR to another folder.`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.writeFileSync(file, String(process.pid));
  return () => fs.rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A pg Client whose connection errors say they happened while connecting (`markConnectError`): whatever
 * PostgreSQL answers before a session exists (55000 'database is not currently accepting connections',
 * 57P03 starting up, 53300 too many connections, an authentication or TLS failure) means no statement ran
 * and the database cannot serve now, so the error handler answers 503 with Retry-After (lib/errors.ts).
 * Only the public `connect` is wrapped, in its callback form (the pool's) and its promise form.
 */
function connectMarkingClient(Base: typeof import('pg').Client): typeof import('pg').Client {
  return class extends Base {
    override connect(): Promise<import('pg').Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<import('pg').Client> | void {
      if (callback) return super.connect((err: Error) => callback(err && markConnectError(err)));
      return super.connect().catch((err: unknown) => Promise.reject(markConnectError(err)));
    }
  };
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`invalid identifier ${name}`);
  return `"${name}"`;
}

export async function count(db: Db, table: string): Promise<number> {
  const res = (await db.execute(sql.raw(`select count(*)::int as n from ${quoteIdent(table)}`))) as unknown as {
    rows: { n: number }[];
  };
  return res.rows[0]?.n ?? 0;
}
