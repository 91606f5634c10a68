import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchCountiesFx } from '../entities/county';
import { fetchDevicePinsFx, fetchDevicesFx } from '../entities/device';
import { fakeDevice } from '../entities/device/lib/fake-device';
import { fetchOverviewFx } from '../entities/overview';
import {
  $sessionStatus,
  clearTokenFx,
  fetchCurrentUserFx,
  readTokenFx,
  saveTokenFx,
  sessionCheckRequested,
  sessionEnded,
  tokenReceived,
} from '../entities/session';
import { liveUpdatesStarted } from '../features/live-devices';
import { preloadMapFx } from '../pages/map';
import { HttpError } from '../shared/api';
import { fetchClientConfigFx } from '../shared/config';
import './model';

const USER = { id: 1, email: 'distributor@demo.test', role: 'distributor' };
const tick = () => new Promise((r) => setTimeout(r, 20));

/** A scope whose calls are recorded; the session check answers when `answerUser` is called. */
function setup(user: () => Promise<unknown>, overview: () => Promise<unknown> = async () => ({ total_devices: 1 })) {
  const calls: string[] = [];
  let answerOverview: () => void = () => undefined;
  let answerUser: () => void = () => undefined;
  const scope = fork({
    handlers: [
      [readTokenFx, () => 'stored-token'],
      [saveTokenFx, () => undefined],
      [clearTokenFx, () => undefined],
      [preloadMapFx, () => undefined],
      [
        fetchCurrentUserFx,
        () => (calls.push('user'), new Promise((resolve, reject) => (answerUser = () => user().then(resolve, reject)))),
      ],
      [
        fetchOverviewFx,
        () => (
          calls.push('overview'),
          new Promise(
            (resolve, reject) => (answerOverview = () => (calls.push('overview done'), overview().then(resolve, reject))),
          )
        ),
      ],
      [fetchDevicesFx, async () => (calls.push('devices'), [fakeDevice('A1')])],
      [fetchDevicePinsFx, async () => (calls.push('pins'), new Map())],
      [fetchCountiesFx, async () => (calls.push('counties'), [])],
      [fetchClientConfigFx, async () => (calls.push('config'), { mapsKey: null })],
    ] as never,
  });
  const live: number[] = [];
  const unwatch = liveUpdatesStarted.watch(() => live.push(1));
  return { scope, calls, live, unwatch, answerOverview: () => answerOverview(), answerUser: () => answerUser() };
}

describe('app start with a token', () => {
  it('asks for the pins, overview, counties and config beside the session check, not after it; never the full device list; the push connection waits for the check', async () => {
    const { scope, calls, live, unwatch, answerOverview, answerUser } = setup(async () => USER);
    const started = allSettled(sessionCheckRequested, { scope });
    await tick();
    // The session check has not answered: the session's data is on its way already.
    expect(scope.getState($sessionStatus)).toBe('checking');
    expect([...calls].sort()).toEqual(['config', 'counties', 'overview', 'pins', 'user']);
    expect(live).toEqual([]);
    answerUser();
    answerOverview();
    await started;
    unwatch();
    expect(scope.getState($sessionStatus)).toBe('signed-in');
    expect(live).toEqual([1]);
    // The pins (about 60 bytes a device) do not wait for the overview; the full list (1.1 KB a device) is not read.
    expect(calls).not.toContain('devices');
    expect(calls.filter((c) => c === 'pins')).toEqual(['pins']);
  });

  it('after a login the same calls go out with the session check', async () => {
    const { scope, calls, answerOverview, answerUser } = setup(async () => USER);
    const started = allSettled(tokenReceived, { scope, params: 'new-token' });
    await tick();
    expect([...calls].sort()).toEqual(['config', 'counties', 'overview', 'pins', 'user']);
    answerUser();
    answerOverview();
    await started;
    expect(scope.getState($sessionStatus)).toBe('signed-in');
  });

  it('a stored token the server refuses ends the session once, whichever 401 answers first', async () => {
    const refused = async () => Promise.reject(new HttpError(401, { detail: 'Invalid token.' }));
    const { scope, calls, live, unwatch, answerOverview, answerUser } = setup(refused, refused);
    const ended: string[] = [];
    const unwatchEnded = sessionEnded.watch((reason) => ended.push(reason));
    const started = allSettled(sessionCheckRequested, { scope });
    await tick();
    // The overview's 401 comes first and ends the session; the session check's 401 after it changes nothing.
    answerOverview();
    await tick();
    expect(scope.getState($sessionStatus)).toBe('anonymous');
    answerUser();
    await started;
    unwatch();
    unwatchEnded();
    expect(calls).toContain('user');
    expect(ended).toEqual(['unauthorized']);
    expect(scope.getState($sessionStatus)).toBe('anonymous');
    expect(live).toEqual([]);
  });
});
