import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import type { MaintenanceDevice, MaintenanceRecord } from '@fleet/shared';
import { HttpError } from '../../shared/api';
import {
  $credential,
  $devices,
  $loadError,
  $recordSerial,
  $status,
  credentialEntered,
  loadDevicesFx,
  recordFx,
  recordOpened,
  recordPopup,
  recordSubmitted,
  storeCredentialFx,
} from './model';

const device = { serial: 'SP1', label: 'Beach' } as MaintenanceDevice;

function setup() {
  const stored: (string | null)[] = [];
  const loads: string[] = [];
  const records: unknown[] = [];
  const scope = fork({
    handlers: [
      [storeCredentialFx, async (t: string | null) => void stored.push(t)],
      [
        loadDevicesFx,
        async (token: string) => {
          loads.push(token);
          if (token !== 'good-credential') throw new HttpError(401, { detail: 'Invalid token.' });
          return [device];
        },
      ],
      // The popup stays: its timer answers a number that is not this popup's.
      [recordPopup.timerFx, async () => -1],
      [recordFx, async (p: { serial: string; actions: string[] }) => (records.push(p), { serial: p.serial, actions: p.actions } as MaintenanceRecord)],
    ],
  });
  return { scope, stored, loads, records };
}

describe('/maintenance model', () => {
  it('a refused credential is forgotten and said so; an accepted one is kept for the tab and loads the list', async () => {
    const { scope, stored, loads } = setup();
    await allSettled(credentialEntered, { scope, params: ' wrong-credential ' });
    expect(loads).toEqual(['wrong-credential']);
    expect(scope.getState($status)).toBe('refused');
    expect(scope.getState($credential)).toBeNull();
    expect(scope.getState($loadError)).toMatch(/not valid/);
    expect(stored).toEqual([null]);

    await allSettled(credentialEntered, { scope, params: 'good-credential' });
    expect(scope.getState($credential)).toBe('good-credential');
    expect(scope.getState($devices)).toEqual([device]);
    expect(scope.getState($loadError)).toBeNull();
    expect(stored).toEqual([null, 'good-credential']);
  });

  it('records work with the credential, shows the result and reads the list again', async () => {
    const { scope, loads, records } = setup();
    await allSettled(credentialEntered, { scope, params: 'good-credential' });
    await allSettled(recordOpened, { scope, params: 'SP1' });
    await allSettled(recordSubmitted, { scope, params: { actions: ['refilled'], note: 'ok' } });
    expect(records).toEqual([{ token: 'good-credential', serial: 'SP1', actions: ['refilled'], note: 'ok' }]);
    expect(scope.getState($recordSerial)).toBeNull();
    expect(scope.getState(recordPopup.$result)).toMatchObject({ tone: 'success', title: 'WORK RECORDED', message: 'Beach: 1 action saved.' });
    expect(loads).toEqual(['good-credential', 'good-credential']);
  });
});
