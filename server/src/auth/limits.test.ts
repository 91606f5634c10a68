import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/errors.ts';
import { authLimits } from './limits.ts';

const login = { perEmail: 3, perAddress: 10, windowSeconds: 600, perEmailAnyAddress: 5, backoffSeconds: 1 };
const status = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: unknown) => (e instanceof ApiError ? e.status : 500),
  );

describe('auth limits (memory)', () => {
  it('counts attempts before the outcome: 50 parallel attempts on one email+address pass 3 times', async () => {
    const limits = authLimits({ login });
    const answers = await Promise.all(Array.from({ length: 50 }, () => status(limits.loginAttempt('a@x.test', '1.1.1.1'))));
    expect(answers.filter((s) => s === 200)).toHaveLength(3);
    expect(answers.filter((s) => s === 429)).toHaveLength(47);
  });

  it('a stranger spending the limit from elsewhere does not lock out the owner at a known address', async () => {
    const limits = authLimits({ login });
    await (await limits.loginAttempt('d@x.test', 'home')).succeeded();
    for (const addr of ['evil1', 'evil2']) for (let i = 0; i < 3; i++) await status(limits.loginAttempt('d@x.test', addr));
    // Unknown addresses: 5 per email across them; the 6th stranger attempt is refused.
    expect(await status(limits.loginAttempt('d@x.test', 'evil3'))).toBe(429);
    expect(await status(limits.loginAttempt('d@x.test', 'home'))).toBe(200);
  });

  it('a known address that spent its own limit waits a short back-off, not the window', async () => {
    const limits = authLimits({ login });
    await (await limits.loginAttempt('k@x.test', 'office')).succeeded();
    for (let i = 0; i < 3; i++) await limits.loginAttempt('k@x.test', 'office');
    // Spent: one try now (the back-off's point), then 429 with a short Retry-After.
    expect(await status(limits.loginAttempt('k@x.test', 'office'))).toBe(200);
    const refused = await limits.loginAttempt('k@x.test', 'office').catch((e: ApiError) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(Number((refused as ApiError).headers?.['Retry-After'])).toBeLessThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 1100));
    const attempt = await limits.loginAttempt('k@x.test', 'office');
    await attempt.succeeded();
    expect(await status(limits.loginAttempt('k@x.test', 'office'))).toBe(200);
  });

  it('throttles reset mails per email and role lookups per address', async () => {
    const limits = authLimits({
      login,
      resetPerEmail: { points: 2, durationSeconds: 60 },
      checkUserPerAddress: { points: 3, durationSeconds: 60 },
    });
    expect([
      await status(limits.resetRequest('r@x.test', 'a')),
      await status(limits.resetRequest('r@x.test', 'b')),
      await status(limits.resetRequest('r@x.test', 'c')),
    ]).toEqual([200, 200, 429]);
    const lookups = await Promise.all(Array.from({ length: 5 }, () => status(limits.checkUser('z'))));
    expect(lookups.filter((s) => s === 200)).toHaveLength(3);
  });
});
