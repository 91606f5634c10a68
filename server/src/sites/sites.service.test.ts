import { describe, expect, it } from 'vitest';
import type { SQL } from 'drizzle-orm';
import { ApiError } from '../lib/errors.ts';
import type { SiteRow, SitesRepository } from './sites.repository.ts';
import { sitesService } from './sites.service.ts';

const site: SiteRow = {
  id: 3,
  name: 'Audubon Park',
  address: '6500 Magazine St',
  lat: 29.93,
  lng: -90.13,
  location: 1,
  client: null,
  timezone_id: 'America/Chicago',
  devices: [{ serial: 'SP240001', number: 1 }],
  brand_ids: [2, 1],
  batch_ids: [7, 3, 7],
  total_devices: 1,
  online_devices: 1,
  offline_devices: 0,
  warning_devices: 0,
};

function fakeRepo(over: Partial<SitesRepository> = {}) {
  /** What each read was asked: a scan's device condition, or the kept rows' scope ('kept fleet', 'kept brands'). */
  const scopes: (SQL | undefined | string)[] = [];
  const counties: boolean[] = [];
  const keptName = (kept: { fleet: boolean }) => (kept.fleet ? 'kept fleet' : 'kept brands');
  const repo: SitesRepository = {
    async sites(scope) {
      scopes.push(scope);
      return [site];
    },
    async keptSitesJson(kept) {
      scopes.push(keptName(kept));
      return '[{"id":3}]';
    },
    async keptCounties(kept, withoutDevices) {
      scopes.push(keptName(kept));
      counties.push(withoutDevices);
      return [];
    },
    async brandNames() {
      return new Map([[1, 'Bayou Clean']]);
    },
    async counties(scope, withoutDevices) {
      scopes.push(scope);
      counties.push(withoutDevices);
      return [];
    },
    async siteNamesJson(scope) {
      scopes.push(scope);
      return '[[3,"Audubon Park"]]';
    },
    async siteInScope() {
      return undefined;
    },
    async setTimezone() {
      return undefined;
    },
    ...over,
  };
  return { repo, scopes, counties };
}

describe('sites service', () => {
  it('names the brands of a site and lists its batches once each, ascending', async () => {
    const { repo, scopes } = fakeRepo();
    const [answer] = await sitesService({ repo }).deviceGroups({ id: 1, access: 'distributor' });
    expect(answer).toEqual({
      id: 3,
      name: 'Audubon Park',
      address: '6500 Magazine St',
      lat: 29.93,
      lng: -90.13,
      location: 1,
      client: null,
      timezone_id: 'America/Chicago',
      devices: [{ serial: 'SP240001', number: 1 }],
      total_devices: 1,
      online_devices: 1,
      offline_devices: 0,
      warning_devices: 0,
      brand_list: [
        { id: 2, name: '' },
        { id: 1, name: 'Bayou Clean' },
      ],
      batchIds: [3, 7],
    });
    expect(scopes).toEqual([undefined]);
  });

  it('answers distributors and clients from the kept rows, and a partner from its own devices', async () => {
    const { repo, scopes } = fakeRepo();
    const service = sitesService({ repo });
    const answers: unknown[] = [];
    for (const access of ['distributor', 'client', 'market-partner'] as const)
      answers.push(JSON.parse((await service.deviceGroupsAnswer({ id: 4, access })).text));
    expect(scopes.slice(0, 2)).toEqual(['kept fleet', 'kept brands']);
    expect(typeof scopes[2]).toBe('object');
    expect(answers[0]).toEqual([{ id: 3 }]);
    expect(answers[2]).toEqual(await service.deviceGroups({ id: 4, access: 'market-partner' }));
  });

  it('lists every county for a distributor, only counties with its devices for others', async () => {
    const { repo, scopes, counties } = fakeRepo();
    const service = sitesService({ repo });
    await service.locations({ id: 1, access: 'distributor' });
    await service.locations({ id: 9, access: 'market-partner' });
    await service.locations({ id: 5, access: 'client' });
    expect(counties).toEqual([true, false, false]);
    expect(scopes[0]).toBe('kept fleet');
    expect(typeof scopes[1]).toBe('object');
    expect(scopes[2]).toBe('kept brands');
  });

  it('answers 404 for a site outside the scope; stores the zone of the coordinates, never another', async () => {
    const refused = sitesService(fakeRepo()).updateTimezone(
      { id: 5, access: 'market-partner' },
      { id: 3, timezone_id: 'America/Chicago' },
    );
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 404 });
    const stored: string[] = [];
    // Audubon Park, New Orleans: America/Chicago.
    const { repo } = fakeRepo({
      siteInScope: async () => ({ lat: 29.93, lng: -90.13 }),
      setTimezone: async (_scope, id, timezone_id) => (stored.push(timezone_id), { id, timezone_id }),
    });
    const distributor = { id: 1, access: 'distributor' } as const;
    expect(await sitesService({ repo }).updateTimezone(distributor, { id: 3, timezone_id: 'America/Chicago' })).toEqual({
      id: 3,
      timezone_id: 'America/Chicago',
    });
    // An alias of the same zone is the same zone; what is stored is the boundary data's name.
    expect(await sitesService({ repo }).updateTimezone(distributor, { id: 3, timezone_id: 'US/Central' })).toEqual({
      id: 3,
      timezone_id: 'America/Chicago',
    });
    const wrong = sitesService({ repo }).updateTimezone(distributor, { id: 3, timezone_id: 'Australia/Sydney' });
    await expect(wrong).rejects.toMatchObject({
      status: 400,
      body: { timezone_id: ['This site is in America/Chicago (from its coordinates), not Australia/Sydney.'] },
    });
    expect(stored).toEqual(['America/Chicago', 'America/Chicago']);
  });
});
