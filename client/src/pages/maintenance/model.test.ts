import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import type { MaintenanceDevice, MaintenanceRecord, ServicePlan } from '@fleet/shared';
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
  $warned,
  dismissEntryFx,
  entryDismissed,
  enqueueFx,
  loadDevicesFx,
  loadOutboxFx,
  networkReturned,
  recordOpened,
  recordPopup,
  recordSubmitted,
  readKeptFx,
  saveDevicesFx,
  sendOutboxFx,
  storeCredentialFx,
  $crewChoices,
  $crewPlan,
  $extraDevices,
  $lookupError,
  codeEntered,
  crewChosen,
  loadBatchesFx,
  loadPlanDevicesFx,
  loadPlansFx,
  lookupDeviceFx,
  pageMounted,
  readCrewFx,
  readDeepLinkFx,
  storeCrewFx,
  type DeclaredCrew,
  type RecordInput,
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
  const net = {
    online: true,
    refuse: new Set<string>(),
    /** Serials whose records the "server" stores with a warning (a batch recalled meanwhile). */
    warn: new Set<string>(),
    plans: [] as ServicePlan[],
    /** Devices the server answers by serial (a scan of a device not on the list). */
    bySerial: [] as MaintenanceDevice[],
    deepLink: null as string | null,
  };
  const planLoads: string[] = [];
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
      [readKeptFx, async () => ({ devices: null, plans: null })],
      [readDeepLinkFx, () => net.deepLink],
      [readCrewFx, () => null],
      [storeCrewFx, () => undefined],
      [loadBatchesFx, async () => []],
      [
        loadPlansFx,
        async ({ date }: { date: string }) => {
          planLoads.push(date);
          return { plans: net.plans, keptAt: null };
        },
      ],
      [loadPlanDevicesFx, async ({ serials }: { serials: string[] }) => net.bySerial.filter((d) => serials.includes(d.serial))],
      [
        lookupDeviceFx,
        async ({ serial }: { serial: string }) => ({
          serial,
          device: net.bySerial.find((d) => d.serial === serial) ?? null,
          offline: !net.online,
        }),
      ],
      // The popup stays: its timer answers a number that is not this popup's.
      [recordPopup.timerFx, async () => -1],
      [
        enqueueFx,
        async (p: { serial: string; label: string; input: RecordInput; crew: DeclaredCrew | null }) => {
          const entry = {
            seq: ++seq,
            key: `k${seq}`,
            serial: p.serial,
            label: p.label,
            body: {
              serial: p.serial,
              ...p.input,
              ...(p.crew ? { crew: p.crew } : {}),
              idempotency_key: `k${seq}`,
              performed_at: '2026-11-28T10:00:00Z',
            },
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
        dismissEntryFx,
        async (n: number) =>
          void box.splice(
            box.findIndex((e) => e.seq === n),
            1,
          ),
      ],
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
            const warnings = net.warn.has(e.serial) ? ['Batch B-7 in the left pump was recalled.'] : [];
            if (warnings.length) Object.assign(e, { status: 'warned', reason: warnings.join(' ') });
            else box.splice(box.indexOf(e), 1);
            sent.push({ serial: e.serial, warnings } as MaintenanceRecord);
          }
          return { sent, refused };
        },
      ],
    ],
  });
  return { scope, stored, loads, sentBodies, net, planLoads };
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
      message: 'Beach: refilled.',
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

  it("a record stored with the server's warnings stays on the phone with them in words until the technician dismisses it", async () => {
    const { scope, net } = setup();
    await allSettled(credentialEntered, { scope, params: 'good-credential' });
    net.warn.add('SP1');
    await allSettled(recordOpened, { scope, params: 'SP1' });
    await allSettled(recordSubmitted, { scope, params: { refills: [{ pump: 1, batch: 'B-7' }], note: '' } });
    expect(scope.getState($waiting)).toBe(0);
    expect(scope.getState($refused)).toEqual([]);
    const [warned] = scope.getState($warned);
    expect([warned?.serial, warned?.reason]).toEqual(['SP1', 'Batch B-7 in the left pump was recalled.']);
    await allSettled(entryDismissed, { scope, params: warned!.seq! });
    expect(scope.getState($warned)).toEqual([]);
  });

  it("the label's link opens its device once the credential is in; a device off the list is read by serial; a code not of this access says so", async () => {
    const { scope, net } = setup();
    net.deepLink = 'SP1';
    await allSettled(pageMounted, { scope });
    await allSettled(credentialEntered, { scope, params: 'good-credential' });
    expect(scope.getState($recordSerial)).toBe('SP1');

    const quiet = { ...device, serial: 'SP9', label: 'Pier' } as MaintenanceDevice;
    net.bySerial = [quiet];
    await allSettled(codeEntered, { scope, params: 'https://portal.test/maintenance?device=SP9' });
    expect(scope.getState($recordSerial)).toBe('SP9');
    expect(scope.getState($extraDevices).map((d) => d.serial)).toEqual(['SP9']);

    await allSettled(codeEntered, { scope, params: 'XX-404' });
    expect(scope.getState($lookupError)).toBe(
      'XX-404 is not one of the devices of this maintenance access: check the code, or type the serial printed under it.',
    );
    await allSettled(codeEntered, { scope, params: 'https://example.com/' });
    expect(scope.getState($lookupError)).toBe(
      'This code names no device: scan a device label, or type the serial printed under it.',
    );
    net.online = false;
    await allSettled(codeEntered, { scope, params: 'SP77' });
    expect(scope.getState($lookupError)).toMatch(/^No signal, and SP77 is not among the devices kept on this phone/);
  });

  it("the crew: picked from the day's plans, its part of the plan shown, and every record carries it", async () => {
    const { scope, net, sentBodies, planLoads } = setup();
    net.plans = [
      {
        id: 1,
        crews: [
          { crew: { id: 7, name: 'North van' }, stops: [{ devices: [{ serial: 'SP1' }] }] },
          { crew: { id: 8, name: 'South van' }, stops: [] },
        ],
      } as unknown as ServicePlan,
    ];
    await allSettled(credentialEntered, { scope, params: 'good-credential' });
    expect(planLoads).toHaveLength(1);
    expect(planLoads[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(scope.getState($crewChoices)).toEqual([
      { id: '7', name: 'North van' },
      { id: '8', name: 'South van' },
    ]);
    expect(scope.getState($crewPlan)).toBeNull();
    await allSettled(crewChosen, { scope, params: { id: '7', name: 'North van' } });
    expect(scope.getState($crewPlan)?.crew.name).toBe('North van');
    await allSettled(recordOpened, { scope, params: 'SP1' });
    await allSettled(recordSubmitted, {
      scope,
      params: { refills: [{ pump: 1, batch: 'B-7' }], battery_replaced: true, note: '' },
    });
    expect(sentBodies).toEqual([
      expect.objectContaining({
        serial: 'SP1',
        refills: [{ pump: 1, batch: 'B-7' }],
        battery_replaced: true,
        crew: { id: '7', name: 'North van' },
      }),
    ]);
    expect(scope.getState(recordPopup.$result)?.message).toBe('Beach: left pump refilled from batch B-7, battery replaced.');
  });
});
