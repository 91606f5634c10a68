import { matchesDeviceFilter, type PartnerUser } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchDevicesFx, type Device } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import type { PageFilter } from '../../entities/device/page-list';
import { $user } from '../../entities/session';
import {
  $deviceIndex,
  $pickerMatches,
  $pickerTotal,
  addDevicesFx,
  fetchNamedDevicesFx,
  fetchUsersFx,
  pageMounted,
  pickerOpened,
  pickerPages,
  pickerScrolledToEnd,
  pickerSearched,
  pickerSubmitted,
  pickerToggled,
} from './model';

const FLEET: Device[] = [
  fakeDevice('SP1', { label: 'Beach Kiosk', address: '1 Canal St' }),
  fakeDevice('SP2', { label: 'Pool', address: '9 Lake Rd' }),
  fakeDevice('SP3', { label: 'Dock', address: '3 Canal St' }),
  fakeDevice('SP4', { label: 'Canal Bar', address: '4 Main St' }),
  fakeDevice('SP5', { label: 'Gym', address: '5 Main St' }),
];
const partner = (id: number, email: string, serials: string[]) =>
  ({
    id,
    name: email.split('@')[0],
    company: 'Big Easy Events',
    email,
    user_type: 'market-partner',
    activated: true,
    exclusive_device_serials: serials,
    exclusive_devices: [],
  }) as unknown as PartnerUser;
/** Pat has SP1 and a serial that is not placed (the list answers nothing for it). */
const USERS = [partner(1, 'pat@demo.test', ['SP1', 'SP9']), partner(2, 'riley@demo.test', ['SP3'])];
/** The fake server's page size. */
const PAGE = 2;

function setup() {
  const named: (readonly string[])[] = [];
  const pages: { filter: PageFilter; cursor: string | null }[] = [];
  const wholeList: unknown[] = [];
  const scope = fork({
    values: [[$user, { role: 'distributor', user_type: 'distributor' }]],
    handlers: [
      [fetchUsersFx, async () => USERS],
      // GET /api/v1/device?serials=: the placed devices named.
      [
        fetchNamedDevicesFx,
        async (serials: readonly string[]) => (
          named.push(serials),
          FLEET.filter((d) => serials.includes(d.serial)).map(({ serial, label, address }) => ({ serial, label, address }))
        ),
      ],
      // GET /api/v1/devicePage: the search by the shared rule, PAGE devices at a time.
      [
        pickerPages.fetchPageFx,
        async ({ filter, cursor }: { filter: PageFilter; cursor: string | null }) => {
          pages.push({ filter, cursor });
          const hits = FLEET.filter((d) => matchesDeviceFilter(filter, d));
          const from = cursor === null ? 0 : Number(cursor);
          return {
            items: hits.slice(from, from + PAGE),
            nextCursor: from + PAGE < hits.length ? String(from + PAGE) : null,
            total: hits.length,
          };
        },
      ],
      [pickerPages.settleFx, async () => undefined],
      [fetchDevicesFx, async () => (wholeList.push(1), FLEET)],
      [
        addDevicesFx,
        async ({ email, serials }: { email: string; serials: string[] }) => ({
          ...USERS[0]!,
          email,
          exclusive_device_serials: [...USERS[0]!.exclusive_device_serials, ...serials],
        }),
      ],
    ] as never,
  });
  return { scope, named, pages, wholeList };
}

describe('/exclusive-management', () => {
  it("reads only the shown company's devices by serial for its lists, never the whole device list", async () => {
    const { scope, named, wholeList } = setup();
    await allSettled(pageMounted, { scope });
    expect(named).toEqual([['SP1', 'SP9', 'SP3']]);
    const index = scope.getState($deviceIndex);
    expect(index.get('SP1')).toEqual({ serial: 'SP1', label: 'Beach Kiosk', address: '1 Canal St' });
    expect(index.get('SP3')?.label).toBe('Dock');
    // SP9 is not placed: no row.
    expect(index.has('SP9')).toBe(false);
    // A device added through the picker shows its name at once (the picker read it); nothing known is read again.
    await allSettled(pickerOpened, { scope, params: 'pat@demo.test' });
    await allSettled(pickerToggled, { scope, params: 'SP2' });
    await allSettled(pickerSubmitted, { scope });
    expect(scope.getState($deviceIndex).get('SP2')?.label).toBe('Pool');
    expect(named).toEqual([['SP1', 'SP9', 'SP3']]);
    expect(wholeList).toEqual([]);
  });

  it("the picker reads the server's pages of its search (name, serial or address), leaving out the user's own", async () => {
    const { scope, pages, wholeList } = setup();
    await allSettled(pageMounted, { scope });
    await allSettled(pickerOpened, { scope, params: 'pat@demo.test' });
    expect(pages).toEqual([{ filter: {}, cursor: null }]);
    // The first page is SP1 (Pat's own, left out) and SP2; five devices, one of them Pat's.
    expect(scope.getState($pickerMatches).map((d) => d.serial)).toEqual(['SP2']);
    expect(scope.getState($pickerTotal)).toBe(4);
    await allSettled(pickerScrolledToEnd, { scope });
    expect(scope.getState($pickerMatches).map((d) => d.serial)).toEqual(['SP2', 'SP3', 'SP4']);

    // 'canal' is in SP1's and SP3's addresses and SP4's name: the server searches the address too.
    await allSettled(pickerSearched, { scope, params: 'CANAL' });
    expect(pages.at(-1)).toEqual({ filter: { search: 'CANAL' }, cursor: null });
    expect(scope.getState($pickerMatches).map((d) => d.serial)).toEqual(['SP3']);
    expect(scope.getState($pickerTotal)).toBe(2);
    await allSettled(pickerScrolledToEnd, { scope });
    expect(scope.getState($pickerMatches).map((d) => d.serial)).toEqual(['SP3', 'SP4']);
    // A blank search is every device again.
    await allSettled(pickerSearched, { scope, params: '  ' });
    expect(pages.at(-1)).toEqual({ filter: {}, cursor: null });
    expect(wholeList).toEqual([]);
  });
});
