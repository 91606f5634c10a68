import { describe, expect, it } from 'vitest';
import type { PartnerUser } from '@fleet/shared';
import { ApiError } from '../lib/errors.ts';
import type { PartnersRepository } from './partners.repository.ts';
import { partnersService } from './partners.service.ts';

const DIST = { id: 1, access: 'distributor' as const };
const PARTNER = { id: 2, access: 'market-partner' as const };
const MAINTENANCE = { id: -1, access: 'distributor' as const, readOnly: true };

/** An in-memory repository: accounts, devices and exclusive pairs; a transaction that fails leaves nothing. */
function fake() {
  const accounts = [
    { id: 2, email: 'p@x.test', userType: 'market-partner', activated: true },
    { id: 3, email: 'c@x.test', userType: 'client', activated: true },
  ];
  const devices = [
    { id: 10, serial: 'A' },
    { id: 11, serial: 'B' },
  ];
  let pairs = new Set<string>(['2:10']);
  const repo: PartnersRepository = {
    async transaction(fn) {
      const saved = new Set(pairs);
      try {
        return await fn(repo);
      } catch (err) {
        pairs = saved;
        throw err;
      }
    },
    async listUsers(id) {
      return accounts
        .filter((a) => id === undefined || a.id === id)
        .map((a) => {
          const mine = devices.filter((d) => pairs.has(`${a.id}:${d.id}`));
          return {
            id: a.id,
            email: a.email,
            user_type: a.userType,
            exclusive_device_serials: mine.map((d) => d.serial),
            exclusive_devices: mine.map((d) => d.id),
          } as unknown as PartnerUser;
        });
    },
    async accountByEmail(email) {
      return accounts.find((a) => a.email === email);
    },
    async devicesBySerials(serials) {
      return devices.filter((d) => serials.includes(d.serial));
    },
    async addExclusive(userId, ids) {
      const added = ids.filter((id) => !pairs.has(`${userId}:${id}`));
      for (const id of added) pairs.add(`${userId}:${id}`);
      return added;
    },
    async removeExclusive(userId, ids) {
      const removed = ids.filter((id) => pairs.delete(`${userId}:${id}`));
      return removed;
    },
  };
  const revoked: [number, string[]][] = [];
  const nudged: string[][] = [];
  const service = partnersService({
    repo,
    deviceAccess: { revokeDevices: async (u, s) => void revoked.push([u, s]) },
    log: () => undefined,
    devicesChanged: (s) => void nudged.push(s),
  });
  return { service, revoked, nudged, pairs: () => [...pairs].sort() };
}

const status = async (p: Promise<unknown>) => {
  try {
    await p;
    return 200;
  } catch (err) {
    return err instanceof ApiError ? err.status : 500;
  }
};

describe('partners service', () => {
  it('lists users for distributors only (not partners, not the maintenance credential)', async () => {
    const { service } = fake();
    expect(await service.listUsers(DIST)).toHaveLength(2);
    expect(await status(service.listUsers(PARTNER))).toBe(403);
    expect(await status(service.listUsers(MAINTENANCE))).toBe(403);
  });

  it('adds and removes; revokes socket rooms only for devices really removed, after the write', async () => {
    const { service, revoked, pairs } = fake();
    expect((await service.addDevices(DIST, 'P@X.test', { deviceSerials: ['B'] })).exclusive_device_serials).toEqual(['A', 'B']);
    expect(pairs()).toEqual(['2:10', '2:11']);
    await service.removeDevices(DIST, 'p@x.test', { deviceSerials: ['A'] });
    expect(revoked).toEqual([[2, ['A']]]);
    await service.removeDevices(DIST, 'p@x.test', { deviceSerials: ['A'] });
    expect(revoked).toHaveLength(1);
  });

  it('nudges the pollers of the devices a committed write changed, and nothing for a refused one', async () => {
    const { service, nudged } = fake();
    await service.addDevices(DIST, 'p@x.test', { deviceSerials: ['B'] });
    await service.removeDevices(DIST, 'p@x.test', { deviceSerials: ['A', 'B'] });
    await expect(service.addDevices(DIST, 'p@x.test', { deviceSerials: ['B', 'Z'] })).rejects.toMatchObject({ status: 400 });
    expect(nudged).toEqual([['B'], ['A', 'B']]);
  });

  it('refuses unknown serials as a whole, non-partners, unknown emails', async () => {
    const { service, pairs } = fake();
    await expect(service.addDevices(DIST, 'p@x.test', { deviceSerials: ['B', 'Z'] })).rejects.toMatchObject({
      status: 400,
      body: { deviceSerials: ['Unknown device: Z'] },
    });
    expect(pairs()).toEqual(['2:10']);
    await expect(service.addDevices(DIST, 'c@x.test', { deviceSerials: ['B'] })).rejects.toMatchObject({
      status: 400,
      body: { email: ['Only market-partner users have exclusive devices.'] },
    });
    expect(await status(service.addDevices(DIST, 'nobody@x.test', { deviceSerials: ['B'] }))).toBe(404);
    expect(await status(service.addDevices(DIST, 'not an email', { deviceSerials: ['B'] }))).toBe(404);
    expect(await status(service.addDevices(PARTNER, 'p@x.test', { deviceSerials: ['B'] }))).toBe(403);
  });
});
