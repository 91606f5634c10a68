import pg from 'pg';

/** The PostgreSQL the database-backed tests use: 127.0.0.1:5432, database test (CI has it). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether the PostgreSQL tests run. In CI (CI=true) an unreachable server is a failure, never a skip;
 * on a developer machine without PostgreSQL those tests are skipped and the PGlite ones still run.
 */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (err) {
    if (process.env.CI === 'true') {
      throw new Error(`CI=true and PostgreSQL at ${TEST_DATABASE_URL} is unreachable: ${(err as Error).message}`, { cause: err });
    }
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export type Backend = 'pglite' | 'postgres';

/** Backends a database test file runs on: always PGlite, and PostgreSQL where it is reachable (always in CI). */
export async function backends(): Promise<Backend[]> {
  return (await postgresAvailable()) ? ['pglite', 'postgres'] : ['pglite'];
}
