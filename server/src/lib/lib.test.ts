import { describe, expect, it } from 'vitest';
import { hashPassword, keyHash, randomKey, verifyPassword } from './crypto.ts';
import { memoryRateLimiter } from './rate-limiter.ts';

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

describe('memory rate limiter', () => {
  it('blocks after the limit until the window ends, and reset clears a key', async () => {
    let now = 0;
    const limiter = memoryRateLimiter(2, 60, () => now);
    expect(await limiter.blockedFor('a')).toBe(0);
    await limiter.hit('a');
    await limiter.hit('a');
    expect(await limiter.blockedFor('a')).toBe(60);
    expect(await limiter.blockedFor('b')).toBe(0);
    now = 30_500;
    expect(await limiter.blockedFor('a')).toBe(30);
    now = 60_001;
    expect(await limiter.blockedFor('a')).toBe(0);
    await limiter.hit('a');
    await limiter.hit('a');
    await limiter.reset('a');
    expect(await limiter.blockedFor('a')).toBe(0);
  });
});
