import { describe, expect, it } from 'vitest';
import { keyHash } from '../lib/crypto.ts';
import type { AuthRepository, UserRow } from './auth.repository.ts';
import { authService } from './auth.service.ts';

// A token's last use on a fake repository whose reads take a while, as a busy database's do: the calls
// that find the once-a-minute record due together must write it once, not once each.
const SECRET = 's'.repeat(32);
const user = {
  id: 7,
  email: 'd@x.test',
  username: 'd',
  role: 'distributor',
  userType: 'distributor',
  activated: true,
} as unknown as UserRow;

function fakeRepo(lastUsedAt: Date | null) {
  const token = { id: 11, hash: keyHash(SECRET, 'tok0123456789'), createdAt: new Date('2026-11-28T09:00:00Z'), lastUsedAt };
  const touches: Date[] = [];
  const repo = {
    async findUserByTokenHash(hash: string) {
      await new Promise((r) => setTimeout(r, 5));
      return hash === token.hash
        ? { ...user, tokenId: token.id, tokenCreatedAt: token.createdAt, tokenLastUsedAt: token.lastUsedAt }
        : undefined;
    },
    async touchToken(_id: number, at: Date) {
      await new Promise((r) => setTimeout(r, 5));
      touches.push(at);
      token.lastUsedAt = at;
    },
    async deleteTokenById() {},
  } as unknown as AuthRepository;
  return { repo, touches };
}

const serviceAt = (repo: AuthRepository, clock: { t: number }) =>
  authService({
    repo,
    mailer: {} as never,
    limits: {} as never,
    secretKey: SECRET,
    publicUrl: 'http://x',
    now: () => new Date(clock.t),
  });

describe("authenticate: the token's last use", () => {
  it('is written once by fifty concurrent calls that find it due, and again only a minute later', async () => {
    const clock = { t: Date.parse('2026-11-28T10:00:00Z') };
    const { repo, touches } = fakeRepo(new Date(clock.t - 61_000));
    const auth = serviceAt(repo, clock);
    const viewers = await Promise.all(Array.from({ length: 50 }, () => auth.authenticate('Token tok0123456789')));
    expect(viewers.every((v) => v.id === 7)).toBe(true);
    expect(touches).toEqual([new Date(clock.t)]);
    // Every caller is told the expiry that write set (7 days idle by default).
    expect(new Set(viewers.map((v) => v.tokenExpiresAt!.getTime()))).toEqual(new Set([clock.t + 168 * 3_600_000]));

    clock.t += 30_000;
    await Promise.all(Array.from({ length: 10 }, () => auth.authenticate('Token tok0123456789')));
    expect(touches).toHaveLength(1);
    clock.t += 31_000;
    await Promise.all(Array.from({ length: 10 }, () => auth.authenticate('Token tok0123456789')));
    expect(touches).toEqual([new Date(clock.t - 61_000), new Date(clock.t)]);
  });

  it('a token never used before is recorded once by its first concurrent calls', async () => {
    const clock = { t: Date.parse('2026-11-28T10:00:00Z') };
    const { repo, touches } = fakeRepo(null);
    const auth = serviceAt(repo, clock);
    await Promise.all([1, 2, 3, 4, 5].map(() => auth.authenticate('Token tok0123456789')));
    expect(touches).toEqual([new Date(clock.t)]);
  });
});
