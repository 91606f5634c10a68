import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import type { MaintenanceDevice, MaintenanceRecord } from '@fleet/shared';
import type { OutboxEntry } from '../../entities/maintenance';
import { HttpError } from '../../shared/api';
import {
  $credential,
  $devices,
  $loadError,
  $recordSerial,
  $status,
  credentialEntered,
  $refused,
  $waiting,
  enqueueFx,
  loadDevicesFx,
  loadOutboxFx,
  networkReturned,
  recordOpened,
  recordPopup,
  recordSubmitted,
  saveDevicesFx,
  sendOutboxFx,
  storeCredentialFx,
} from './model';

const device = { serial: 'SP1', label: 'Beach' } as MaintenanceDevice;

/**
 * An outbox in memory (the real one is IndexedDB): `online` false makes sending stop as with no signal;
 * a serial in `refuse` is refused by the "server" with a reason.
 */
function setup() {
  const stored: (string | null)[] = [];
  const loads: string[] = [];
  const sentBodies: unknown[] = [];
  const box: OutboxEntry[] = [];
  const net = { online: true, refuse: new Set<string>() };
  let seq = 0;
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
      [saveDevicesFx, async () => undefined],
      // The popup stays: its timer answers a number that is not this popup's.
      [recordPopup.timerFx, async () => -1],
      [
        enqueueFx,
        async (p: { serial: string; label: string; actions: string[]; note: string }) => {
          const entry = {
            seq: ++seq,
            key: `k${seq}`,
            serial: p.serial,
            label: p.label,
            body: { ...p, idempotency_key: `k${seq}`, performed_at: '2026-11-28T10:00:00Z' },
            status: 'waiting',
            reason: null,
            createdAt: '',
          } as OutboxEntry;
          box.push(entry);
          return entry;
        },
      ],
      [loadOutboxFx, async () => box.map((e) => ({ ...e }))],
      [
        sendOutboxFx,
        async () => {
          const sent: MaintenanceRecord[] = [];
          let refused = 0;
          for (const e of box.filter((x) => x.status === 'waiting')) {
            if (!net.online) break;
            if (net.refuse.has(e.serial)) {
              Object.assign(e, { status: 'refused', reason: 'No device with this serial.' });
              refused++;
              continue;
            }
            sentBodies.push(e.body);
            box.splice(box.indexOf(e), 1);
            sent.push({ serial: e.serial } as MaintenanceRecord);
          }
          return { sent, refused };
        },
      ],
    ],
  });
  return { scope, stored, loads, sentBodies, net };
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

  it('records work into the outbox, sends it with its key, shows the result and reads the list again', async () => {
    const { scope, loads, sentBodies } = setup();
    await allSettled(credentialEntered, { scope, params: 'good-credential' });
    await allSettled(recordOpened, { scope, params: 'SP1' });
    await allSettled(recordSubmitted, { scope, params: { actions: ['refilled'], note: 'ok' } });
    expect(sentBodies).toEqual([
      {
        serial: 'SP1',
        label: 'Beach',
        actions: ['refilled'],
        note: 'ok',
        idempotency_key: 'k1',
        performed_at: '2026-11-28T10:00:00Z',
      },
    ]);
    expect(scope.getState($recordSerial)).toBeNull();
    expect(scope.getState(recordPopup.$result)).toMatchObject({
      tone: 'success',
      title: 'WORK RECORDED',
      message: 'Beach: 1 action saved.',
    });
    expect(scope.getState($waiting)).toBe(0);
    expect(loads).toEqual(['good-credential', 'good-credential']);
  });

  it('without signal records wait, counted, in order; they go when the network returns; a refused one stays with its reason', async () => {
    const { scope, sentBodies, net } = setup();
    await allSettled(credentialEntered, { scope, params: 'good-credential' });
    net.online = false;
    for (const note of ['one', 'two', 'three']) {
      await allSettled(recordOpened, { scope, params: 'SP1' });
      await allSettled(recordSubmitted, { scope, params: { actions: ['repaired'], note } });
    }
    expect(scope.getState($waiting)).toBe(3);
    expect(sentBodies).toEqual([]);
    net.online = true;
    net.refuse.add('SP1');
    await allSettled(networkReturned, { scope });
    expect(scope.getState($waiting)).toBe(0);
    expect(scope.getState($refused).map((e) => [e.body.note, e.reason])).toEqual([
      ['one', 'No device with this serial.'],
      ['two', 'No device with this serial.'],
      ['three', 'No device with this serial.'],
    ]);
    net.refuse.clear();
    await allSettled(recordOpened, { scope, params: 'SP1' });
    await allSettled(recordSubmitted, { scope, params: { actions: ['repaired'], note: 'four' } });
    expect(sentBodies.map((b) => (b as { note: string }).note)).toEqual(['four']);
  });
});
