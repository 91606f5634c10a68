import { describe, expect, it } from 'vitest';
import { hashPassword, keyHash, randomKey, verifyPassword } from './crypto.ts';
import { errorHandler, isDatabaseUnavailable, markConnectError } from './errors.ts';
import { NUL_MESSAGE } from '@fleet/shared';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('Demo1234');
    const b = await hashPassword('Demo1234');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('Demo1234', a)).toBe(true);
    expect(await verifyPassword('demo1234', a)).toBe(false);
    expect(await verifyPassword('Demo1234', 'garbage')).toBe(false);
  });
});

describe('keys', () => {
  it('are random and stored under a keyed hash', () => {
    const k = randomKey();
    expect(k).toMatch(/^[0-9a-f]{40}$/);
    expect(randomKey()).not.toBe(k);
    expect(keyHash('s1', k)).toBe(keyHash('s1', k));
    expect(keyHash('s2', k)).not.toBe(keyHash('s1', k));
  });
});

describe('error handler', () => {
  const answer = (err: unknown) => {
    const out: { status?: number; body?: unknown; headers: Record<string, string>; logged: unknown[] } = {
      headers: {},
      logged: [],
    };
    const res = {
      status: (s: number) => ((out.status = s), res),
      json: (b: unknown) => ((out.body = b), res),
      set: (k: string | Record<string, string>, v?: string) => (
        Object.assign(out.headers, typeof k === 'string' ? { [k]: v } : k),
        res
      ),
    };
    errorHandler((_m, e) => out.logged.push(e))(err, {} as never, res as never, () => undefined);
    return out;
  };

  it('answers text PostgreSQL refused (NUL in text or jsonb) with 400, bare or wrapped by drizzle', () => {
    expect(answer({ code: '22021' })).toMatchObject({ status: 400, body: { detail: NUL_MESSAGE }, logged: [] });
    expect(answer({ cause: { code: '22P05' } })).toMatchObject({ status: 400, body: { detail: NUL_MESSAGE } });
  });

  it('keeps other database errors a logged 500', () => {
    const out = answer({ code: '40001' });
    expect(out).toMatchObject({ status: 500, body: { detail: 'Internal server error.' } });
    expect(out.logged).toHaveLength(1);
  });

  it('answers a database refusing connections with 503 and Retry-After: 55000 "not currently accepting connections", class 08, 57P01-57P05, 53300, bare or wrapped', () => {
    const pg = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
    const outages = [
      pg('55000', 'database "fleet" is not currently accepting connections'),
      pg('57P03', 'the database system is starting up'),
      pg('57P04', 'database dropped'),
      pg('57P01', 'terminating connection due to administrator command'),
      pg('08006', 'connection failure'),
      pg('53300', 'sorry, too many clients already'),
      // drizzle wraps the driver's error: the code is on its cause.
      new Error('Failed query: select 1', { cause: pg('55000', 'database "fleet" is not currently accepting connections') }),
    ];
    for (const err of outages) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
      expect(answer(err)).toMatchObject({
        status: 503,
        headers: { 'Retry-After': '5' },
        body: { detail: 'The service is temporarily unavailable. Try again shortly.' },
      });
    }
  });

  it('treats every error raised while connecting as an outage, and the same codes at query time as the bugs they are', () => {
    const auth = () => Object.assign(new Error('password authentication failed for user "fleet"'), { code: '28P01' });
    expect(answer(markConnectError(auth()))).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    expect(answer(new Error('Failed query', { cause: markConnectError(auth()) }))).toMatchObject({ status: 503 });
    expect(answer(auth())).toMatchObject({ status: 500 });
    // 55000 at query time is a statement that cannot run (a sequence's currval before nextval): a bug, not an outage.
    expect(
      answer(Object.assign(new Error('currval of sequence "x" is not yet defined in this session'), { code: '55000' })),
    ).toMatchObject({ status: 500 });
  });
});
