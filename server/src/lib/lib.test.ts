import { describe, expect, it } from 'vitest';
import { hashPassword, keyHash, randomKey, verifyPassword } from './crypto.ts';
import { errorHandler } from './errors.ts';
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
    const out: { status?: number; body?: unknown; logged: unknown[] } = { logged: [] };
    const res = { status: (s: number) => ((out.status = s), res), json: (b: unknown) => ((out.body = b), res), set: () => res };
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
});
