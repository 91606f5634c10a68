import type { BrandAnswer, ClientUser, CurrentUser } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchBrandsFx } from '../../entities/brand';
import { fetchDevicePinsFx } from '../../entities/device';
import { $user, sessionEnded } from '../../entities/session';
import { $clientChoices, fetchClientUsersFx } from '../../entities/user';
import { HttpError } from '../../shared/api';
import {
  $brandErrors,
  $brandForm,
  $brandFormMode,
  addBrandFx,
  brandAddOpened,
  brandClientChosen,
  brandDetailOpened,
  brandFormSubmitted,
  brandImageChosen,
  brandNameChanged,
  brandResult,
  chosenClients,
  editBrandFx,
  withClient,
} from './model';

const user = (access: string) =>
  ({
    id: 1,
    email: `${access}@demo.test`,
    role: access === 'client' ? 'client' : 'distributor',
    user_type: access,
    access,
  }) as unknown as CurrentUser;
const SUNSTOP = {
  id: 3,
  name: 'SunStop',
  image: '/u/s.png',
  image_url: '/u/s.png',
  clients: [{ id: 7, email: 'c1@x.test', name: 'C1', company: 'One' }],
  deviceSerials: [],
  device_count: 0,
} as BrandAnswer;
/** GET /api/v1/myUser: a client on SunStop and one with no brand yet. */
const CLIENT_USERS: ClientUser[] = [
  {
    id: 7,
    email: 'c1@x.test',
    name: 'C1',
    company: 'One',
    phone: '',
    brands: [{ id: 3, name: 'SunStop' }],
    profile_url: null,
    is_enable_notification_email: false,
    is_enable_notification_phone: false,
  },
  {
    id: 8,
    email: 'c2@x.test',
    name: 'C2',
    company: 'Two',
    phone: '',
    brands: [],
    profile_url: null,
    is_enable_notification_email: false,
    is_enable_notification_phone: false,
  },
];
const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' });

function setup(access = 'distributor', add?: () => Promise<BrandAnswer>) {
  const sent: { add: unknown[]; edit: unknown[] } = { add: [], edit: [] };
  const reads: string[] = [];
  const scope = fork({
    values: [[$user, user(access)]],
    handlers: [
      [fetchBrandsFx, async () => (reads.push('brands'), [SUNSTOP])],
      // A write re-reads the map's pins (the full list only where a view had read it).
      [fetchDevicePinsFx, async () => (reads.push('devices'), new Map())],
      [fetchClientUsersFx, async () => (reads.push('clients'), CLIENT_USERS)],
      [addBrandFx, (p: unknown) => (sent.add.push(p), add ? add() : Promise.resolve({ ...SUNSTOP, id: 9, name: 'Pelican' }))],
      [editBrandFx, async (p: unknown) => (sent.edit.push(p), { ...SUNSTOP, name: 'SunStop Co' })],
      [brandResult.timerFx, async () => -1],
    ],
  });
  return { scope, sent, reads };
}

describe('client slots', () => {
  it('never takes one client twice, and sends the chosen ones once each in slot order', () => {
    expect(withClient(['a', '', '', '', ''], 1, 'a')).toEqual(['a', '', '', '', '']);
    expect(withClient(['a', '', '', '', ''], 1, 'b')).toEqual(['a', 'b', '', '', '']);
    expect(withClient(['a', 'b', '', '', ''], 0, '')).toEqual(['', 'b', '', '', '']);
    expect(chosenClients(['', 'b', '', 'a', ''])).toEqual(['b', 'a']);
  });
});

describe('ADD NEW BRAND and brand details', () => {
  it('needs a name and an image: (Required) and Image Required, nothing sent', async () => {
    const { scope, sent } = setup();
    await allSettled(brandAddOpened, { scope });
    await allSettled(brandFormSubmitted, { scope });
    expect(scope.getState($brandErrors)).toEqual({ name: '(Required)', image: 'Image Required' });
    expect(sent.add).toEqual([]);
    await allSettled(brandNameChanged, { scope, params: 'P' });
    expect(scope.getState($brandErrors)).toEqual({ image: 'Image Required' });
  });

  it('adds the brand with its logo and clients, says BRAND ADDED and re-reads the brands', async () => {
    const { scope, sent, reads } = setup();
    await allSettled(brandAddOpened, { scope });
    const file = png();
    await allSettled(brandNameChanged, { scope, params: 'Pelican' });
    await allSettled(brandImageChosen, { scope, params: file });
    await allSettled(brandClientChosen, { scope, params: { slot: 2, email: 'c2@x.test' } });
    await allSettled(brandClientChosen, { scope, params: { slot: 0, email: 'c1@x.test' } });
    await allSettled(brandFormSubmitted, { scope });
    expect(sent.add).toEqual([{ name: 'Pelican', image: file, clients: ['c1@x.test', 'c2@x.test'] }]);
    expect(scope.getState(brandResult.$result)).toMatchObject({ tone: 'success', title: 'BRAND ADDED' });
    expect(scope.getState($brandFormMode)).toBe('closed');
    // All three lists are read again, once each (their order follows the order the models were loaded in).
    expect([...reads].sort()).toEqual(['brands', 'clients', 'devices']);
  });

  it('refuses an image that is not PNG, JPEG, GIF or WebP', async () => {
    const { scope } = setup();
    await allSettled(brandAddOpened, { scope });
    await allSettled(brandNameChanged, { scope, params: 'P' });
    await allSettled(brandImageChosen, { scope, params: new File(['x'], 'a.txt', { type: 'text/plain' }) });
    await allSettled(brandFormSubmitted, { scope });
    expect(scope.getState($brandErrors).image).toBe('Upload a PNG, JPEG, GIF or WebP image.');
  });

  it('edit starts from the brand; an unchanged name is not sent, the client set always is', async () => {
    const { scope, sent } = setup();
    await allSettled(fetchBrandsFx, { scope });
    await allSettled(brandDetailOpened, { scope, params: 3 });
    expect(scope.getState($brandForm)).toMatchObject({ name: 'SunStop', image: null, clients: ['c1@x.test', '', '', '', ''] });
    await allSettled(brandFormSubmitted, { scope });
    expect(sent.edit).toEqual([{ id: 3, name: null, image: null, clients: ['c1@x.test'] }]);
    expect(scope.getState(brandResult.$result)?.title).toBe('BRAND EDITED');
  });

  it('a failed add says FAIL TO ADD BRAND and puts the server’s field message under the name', async () => {
    const { scope } = setup('distributor', () =>
      Promise.reject(new HttpError(400, { name: ['A brand with this name already exists.'] })),
    );
    await allSettled(brandAddOpened, { scope });
    await allSettled(brandNameChanged, { scope, params: 'SunStop' });
    await allSettled(brandImageChosen, { scope, params: png() });
    await allSettled(brandFormSubmitted, { scope });
    expect(scope.getState(brandResult.$result)).toMatchObject({
      tone: 'danger',
      title: 'FAIL TO ADD BRAND',
      message: 'A brand with this name already exists.',
    });
    expect(scope.getState($brandErrors).name).toBe('A brand with this name already exists.');
    expect(scope.getState($brandFormMode)).toBe('add');
  });

  it('does not open for a client, nor asks for the client list', async () => {
    const { scope, reads } = setup('client');
    await allSettled(brandAddOpened, { scope });
    expect(scope.getState($brandFormMode)).toBe('closed');
    expect(reads).toEqual([]);
  });

  it('the slots offer every client of GET /api/v1/myUser, one with no brand too, read again on each opening', async () => {
    const { scope, reads } = setup();
    await allSettled(brandAddOpened, { scope });
    expect(scope.getState($clientChoices).map((c) => [c.email, c.label])).toEqual([
      ['c1@x.test', 'One'],
      ['c2@x.test', 'Two'],
    ]);
    await allSettled(fetchBrandsFx, { scope });
    await allSettled(brandDetailOpened, { scope, params: 3 });
    expect(reads).toEqual(['clients', 'brands', 'clients']);
    await allSettled(sessionEnded, { scope, params: 'logout' });
    expect(scope.getState($clientChoices)).toEqual([]);
  });
});
