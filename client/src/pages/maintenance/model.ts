import { MAINTENANCE_ACTION_TEXT } from '@fleet/shared';
import type {
  BatchAnswer,
  CrewPlanAnswer,
  MaintenanceAction,
  MaintenanceDevice,
  MaintenanceRefill,
  ServicePlan,
} from '@fleet/shared';
import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import {
  MAINTENANCE_CREDENTIAL_KEY,
  maintenanceCalls,
  outbox,
  phoneDay,
  readStoredCredential,
  serialFromCode,
  stockOf,
  type OutboxEntry,
  type SnapshotName,
} from '../../entities/maintenance';
import { failureMessage, HttpError } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';
import { $updateReady, applyUpdateFx, pwaStarted, reloadClicked } from './pwa';

/**
 * /maintenance runs on the maintenance credential, not a user session (spec sections 2 and 7). The page
 * takes it from the link a distributor hands out (`/maintenance#token=...`: a fragment never reaches a
 * server or its logs, and the page removes it from the address bar at once) or from the form, keeps it in
 * this tab's sessionStorage only (closing the tab forgets it), and sends it as `Authorization: Token ...`.
 */
export const pageMounted = createEvent();
export const credentialEntered = createEvent<string>();
export const credentialForgotten = createEvent();
export const refreshClicked = createEvent();
export const recordOpened = createEvent<string>();
export const recordClosed = createEvent();
/** What the technician did on the open device (the three taps: the action, its batch, Save). */
export type RecordInput = {
  actions?: MaintenanceAction[];
  refills?: MaintenanceRefill[];
  battery_replaced?: boolean;
  repaired?: boolean;
  note: string;
  /** A JPEG the phone resized (base64), at most 1 MB. */
  photo?: string;
};
export const recordSubmitted = createEvent<RecordInput>();
/** The crew the technician declared (remembered on this phone; records carry it). */
export type DeclaredCrew = { id: string; name: string };

/** The credential from the link's fragment (removed from the address bar), else from this tab's storage. */
export const readCredentialFx = createEffect((): string | null => {
  const match = /(?:^#|&)token=([A-Za-z0-9]{10,128})(?:&|$)/.exec(window.location.hash);
  if (match?.[1]) {
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    return match[1];
  }
  return readStoredCredential();
});
export const storeCredentialFx = createEffect((token: string | null) => {
  if (token) window.sessionStorage.setItem(MAINTENANCE_CREDENTIAL_KEY, token);
  else window.sessionStorage.removeItem(MAINTENANCE_CREDENTIAL_KEY);
});

export const loadDevicesFx = createEffect((token: string) => maintenanceCalls.devices(token));
/** A record made on the phone: kept in the outbox (IndexedDB) first, whatever the signal, then sent. */
export const enqueueFx = createEffect(
  ({ serial, label, input, crew }: { serial: string; label: string; input: RecordInput; crew: DeclaredCrew | null }) => {
    const key = crypto.randomUUID();
    return outbox.add({
      key,
      serial,
      label,
      body: {
        serial,
        ...input,
        ...(crew ? { crew } : {}),
        idempotency_key: key,
        performed_at: new Date().toISOString(),
      },
    });
  },
);
export const loadOutboxFx = createEffect(() => outbox.list());
export const sendOutboxFx = createEffect((token: string) => outbox.send(token));
export const dismissEntryFx = createEffect((seq: number) => outbox.remove(seq));
export const saveDevicesFx = createEffect((list: MaintenanceDevice[]) => outbox.saveDevices(list));
export const savedDevicesFx = createEffect(() => outbox.savedDevices());
/** The browser says the network is back (the 'online' event), or the periodic retry while records wait. */
export const networkReturned = createEvent();
/** The technician has read a refused record, or a stored one's warnings: it leaves the phone. */
export const entryDismissed = createEvent<number>();

/** The credential the page runs on: set once the server accepted it. */
export const $credential = createStore<string | null>(null, { serialize: 'ignore' });
/** A credential being tried (from the link, storage or the form). */
const $trying = createStore<string | null>(null, { serialize: 'ignore' });
export const $devices = createStore<MaintenanceDevice[]>([]);
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed' | 'refused';
export const $status = createStore<LoadStatus>('idle');
export const $loadError = createStore<string | null>(null);
export const $loadedAt = createStore<Date | null>(null, { serialize: 'ignore' });

export const $recordSerial = createStore<string | null>(null);
export const $recordError = createStore<string | null>(null);
export const $recordPending = enqueueFx.pending;
export const recordPopup = createResultPopup({ ms: 1500 });

const isRefused = (e: unknown) => e instanceof HttpError && (e.status === 401 || e.status === 403);

sample({ clock: pageMounted, target: readCredentialFx });
sample({ clock: readCredentialFx.doneData, filter: (t): t is string => Boolean(t), target: $trying });
sample({ clock: credentialEntered, fn: (t) => t.trim(), filter: (t) => t.length > 0, target: $trying });
sample({ clock: $trying, filter: (t): t is string => t !== null, target: loadDevicesFx });
sample({ clock: refreshClicked, source: $credential, filter: (t): t is string => t !== null, target: loadDevicesFx });

// The first answer that works makes the credential the page's; a refused one is forgotten.
sample({ clock: loadDevicesFx.done, fn: ({ params }) => params, target: [$credential, storeCredentialFx] });
sample({
  clock: loadDevicesFx.fail,
  filter: ({ error }) => isRefused(error),
  fn: () => null,
  target: [$credential, $trying, storeCredentialFx],
});
sample({ clock: credentialForgotten, fn: () => null, target: [$credential, $trying, storeCredentialFx] });

$devices.on(loadDevicesFx.doneData, (_, list) => list).reset(credentialForgotten);
$loadedAt.on(loadDevicesFx.done, () => new Date()).reset(credentialForgotten);
$status
  .on(loadDevicesFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(loadDevicesFx.done, () => 'ready')
  .on(loadDevicesFx.fail, (_, { error }) => (isRefused(error) ? 'refused' : 'failed'))
  .reset(credentialForgotten);
$loadError
  .on(loadDevicesFx.fail, (_, { error }) =>
    isRefused(error)
      ? 'This maintenance credential is not valid: it may have been replaced or revoked. Ask a distributor for the current one.'
      : `The devices could not be loaded: ${failureMessage(error)}`,
  )
  .reset(loadDevicesFx.done, credentialForgotten);

// ---------------------------------------------------------------- the crew, the day's plan, the batches
/** Where the phone remembers the declared crew (localStorage: it outlives the tab, unlike the credential). */
export const CREW_KEY = 'fleet.fieldCrew';
export const crewChosen = createEvent<DeclaredCrew | null>();
export const readCrewFx = createEffect((): DeclaredCrew | null => {
  try {
    const v = JSON.parse(window.localStorage.getItem(CREW_KEY) ?? 'null') as DeclaredCrew | null;
    return v && typeof v.id === 'string' && typeof v.name === 'string' ? v : null;
  } catch {
    return null;
  }
});
export const storeCrewFx = createEffect((crew: DeclaredCrew | null) => {
  if (crew) window.localStorage.setItem(CREW_KEY, JSON.stringify(crew));
  else window.localStorage.removeItem(CREW_KEY);
});
export const $crew = createStore<DeclaredCrew | null>(null, { serialize: 'ignore' });
sample({ clock: pageMounted, target: readCrewFx });
sample({ clock: [readCrewFx.doneData, crewChosen], target: $crew });
sample({ clock: crewChosen, target: storeCrewFx });

/**
 * A read that falls back to what the phone kept under `name` when the server cannot be reached (status 0).
 * Answers the value and, when it came from the phone, the time it was kept.
 */
async function readOrKept<T>(name: SnapshotName, read: () => Promise<T>): Promise<{ value: T; keptAt: string | null }> {
  try {
    const value = await read();
    await outbox.save(name, value);
    return { value, keptAt: null };
  } catch (error) {
    const kept = error instanceof HttpError && error.status === 0 ? await outbox.saved<T>(name) : null;
    if (!kept) throw error;
    return { value: kept.value, keptAt: kept.at };
  }
}

/** The published plans of the phone's day (every owner's: the credential sees every device). */
export const loadPlansFx = createEffect(async ({ token, date }: { token: string; date: string }) => {
  const got = await readOrKept('plans', async () => ({ date, plans: await maintenanceCalls.plans(date, token) }));
  // Yesterday's plans kept on the phone are not today's.
  return got.value.date === date ? { plans: got.value.plans, keptAt: got.keptAt } : { plans: [], keptAt: got.keptAt };
});
/** The current state of the devices of the day's plans (pump levels, batches), kept for a day without signal. */
export const loadPlanDevicesFx = createEffect(async ({ token, serials }: { token: string; serials: string[] }) =>
  serials.length ? (await readOrKept('planDevices', () => maintenanceCalls.devicesBySerial(serials, token))).value : [],
);
export const loadBatchesFx = createEffect(
  async (token: string) => (await readOrKept('batches', () => maintenanceCalls.batches(token))).value,
);

export const $plans = createStore<ServicePlan[]>([], { serialize: 'ignore' });
/** The day's plans came from the phone (no signal): when they were kept. */
export const $plansKeptAt = createStore<string | null>(null, { serialize: 'ignore' });
export const $plansError = createStore<string | null>(null, { serialize: 'ignore' });
export const $plansLoaded = createStore(false, { serialize: 'ignore' });
export const $batches = createStore<BatchAnswer[]>([], { serialize: 'ignore' });
/** Devices read by serial: the plan's and those scanned that need no visit (the list has only those that do). */
export const $extraDevices = createStore<MaintenanceDevice[]>([], { serialize: 'ignore' });
/** Every device the phone knows: the list's, then the others read by serial. */
export const $allDevices = combine($devices, $extraDevices, (listed, extra) => [
  ...listed,
  ...extra.filter((d) => !listed.some((l) => l.serial === d.serial)),
]);
export const $stock = $batches.map(stockOf);

/** The crews of the day's published plans: the crew picker's choices. */
export const $crewChoices = $plans.map((plans) => [
  ...new Map(
    plans.flatMap((p) => p.crews.map((c) => [String(c.crew.id), { id: String(c.crew.id), name: c.crew.name }])),
  ).values(),
]);
/** The declared crew's part of the day's published plan, if it has one. */
export const $crewPlan = combine($plans, $crew, (plans, crew): CrewPlanAnswer | null =>
  crew ? (plans.flatMap((p) => p.crews).find((c) => String(c.crew.id) === crew.id) ?? null) : null,
);

/**
 * The credential the reads go with: the one being tried, then the one accepted. The day's plan and the
 * batches are read beside the device list (not after it), so a start without signal shows the kept plan as
 * soon as the credential is taken (the plan's start time: tests/bench/field-app.bench.ts).
 */
const $token = combine($credential, $trying, (accepted, tried) => accepted ?? tried);
const tokenTried = $trying.updates.filterMap((t) => t ?? undefined);
sample({
  clock: [tokenTried, refreshClicked],
  source: $token,
  filter: Boolean,
  fn: (token) => ({ token, date: phoneDay() }),
  target: loadPlansFx,
});
sample({ clock: [tokenTried, refreshClicked], source: $token, filter: Boolean, target: loadBatchesFx });
$plans.on(loadPlansFx.doneData, (_, { plans }) => plans).reset(credentialForgotten);
$plansKeptAt.on(loadPlansFx.doneData, (_, { keptAt }) => keptAt).reset(credentialForgotten);
$plansLoaded.on(loadPlansFx.finally, () => true).reset(credentialForgotten);
$plansError
  .on(loadPlansFx.failData, (_, error) => `The day's plan could not be loaded: ${failureMessage(error)}`)
  .reset(loadPlansFx.done, credentialForgotten);
$batches.on(loadBatchesFx.doneData, (_, list) => list).reset(credentialForgotten);
sample({
  clock: loadPlansFx.doneData,
  source: $token,
  filter: Boolean,
  fn: (token, { plans }) => ({
    token,
    serials: [...new Set(plans.flatMap((p) => p.crews.flatMap((c) => c.stops.flatMap((s) => s.devices.map((d) => d.serial)))))],
  }),
  target: loadPlanDevicesFx,
});

// ---------------------------------------------------------------- opening a device: the link, a scan, a typed serial
/** The label's link (`/maintenance?device=<serial>`): that device opens once the credential is in. */
export const readDeepLinkFx = createEffect((): string | null => {
  const serial = new URLSearchParams(window.location.search).get('device');
  return serial ? serialFromCode(serial) : null;
});
/** A code the camera read, or a serial typed: either names a device. */
export const codeEntered = createEvent<string>();
export const lookupDismissed = createEvent();
/**
 * A device that is not on the list: read by its serial from the server (null: not one of the credential's),
 * or, without signal, from the plan's devices kept on the phone.
 */
export const lookupDeviceFx = createEffect(async ({ token, serial }: { token: string; serial: string }) => {
  try {
    return { serial, device: (await maintenanceCalls.devicesBySerial([serial], token))[0] ?? null, offline: false };
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 0) throw error;
    const kept = await outbox.saved<MaintenanceDevice[]>('planDevices');
    return { serial, device: kept?.value.find((d) => d.serial === serial) ?? null, offline: true };
  }
});
export const $deepLink = createStore<string | null>(null, { serialize: 'ignore' });
export const $lookupError = createStore<string | null>(null, { serialize: 'ignore' });
const serialChosen = createEvent<string>();

sample({ clock: pageMounted, target: readDeepLinkFx });
sample({ clock: readDeepLinkFx.doneData, target: $deepLink });
sample({ clock: codeEntered.filterMap((code) => serialFromCode(code) ?? undefined), target: serialChosen });
$lookupError
  .on(codeEntered, (_, code) =>
    serialFromCode(code) ? null : 'This code names no device: scan a device label, or type the serial printed under it.',
  )
  .reset(lookupDismissed, recordOpened, credentialForgotten);
// The link's device opens once the page has its list (from the server, or from the phone without signal).
sample({
  clock: [loadDevicesFx.done, savedDevicesFx.doneData],
  source: $deepLink,
  filter: (serial): serial is string => serial !== null,
  target: serialChosen,
});
$deepLink.reset(serialChosen);
sample({
  clock: serialChosen,
  source: $allDevices,
  filter: (devices, serial) => devices.some((d) => d.serial === serial),
  fn: (_, serial) => serial,
  target: recordOpened,
});
sample({
  clock: serialChosen,
  source: { devices: $allDevices, token: $credential },
  filter: ({ devices, token }, serial) => token !== null && !devices.some((d) => d.serial === serial),
  fn: ({ token }, serial) => ({ token: token!, serial }),
  target: lookupDeviceFx,
});
$extraDevices
  .on(loadPlanDevicesFx.doneData, (extra, list) => [...list, ...extra.filter((d) => !list.some((l) => l.serial === d.serial))])
  .on(lookupDeviceFx.doneData, (extra, { device }) =>
    device ? [device, ...extra.filter((d) => d.serial !== device.serial)] : extra,
  )
  .reset(credentialForgotten);
sample({
  clock: lookupDeviceFx.doneData,
  filter: ({ device }) => device !== null,
  fn: ({ serial }) => serial,
  target: recordOpened,
});
sample({
  clock: lookupDeviceFx.doneData,
  filter: ({ device }) => device === null,
  fn: ({ serial, offline }) =>
    offline
      ? `No signal, and ${serial} is not among the devices kept on this phone: try again when the signal returns.`
      : `${serial} is not one of the devices of this maintenance access: check the code, or type the serial printed under it.`,
  target: $lookupError,
});
sample({
  clock: lookupDeviceFx.failData,
  fn: (error) => `The device could not be looked up: ${failureMessage(error)}`,
  target: $lookupError,
});

// Recording what was done on one device: into the outbox, then sent (now, or when the signal returns).
export const $outbox = createStore<OutboxEntry[]>([], { serialize: 'ignore' });
/** How many records wait to be sent (the screen always shows it). */
export const $waiting = $outbox.map((list) => list.filter((e) => e.status === 'waiting').length);
/** Records the server refused, with its reason: shown until the technician has read them. */
export const $refused = $outbox.map((list) => list.filter((e) => e.status === 'refused'));
/** Records stored with the server's warnings (a batch recalled meanwhile), in words: shown until read. */
export const $warned = $outbox.map((list) => list.filter((e) => e.status === 'warned'));
/** The list shown comes from the phone (no signal): when the server last gave it. */
export const $savedAt = createStore<string | null>(null, { serialize: 'ignore' });

$outbox.on(loadOutboxFx.doneData, (_, list) => list);
$recordSerial.on(recordOpened, (_, serial) => serial).reset(recordClosed, enqueueFx.done, credentialForgotten);
$recordError
  .on(enqueueFx.failData, (_, error) => `The record could not be kept on this phone: ${failureMessage(error)}`)
  .reset(recordOpened, recordClosed, enqueueFx);
sample({
  clock: recordSubmitted,
  source: { serial: $recordSerial, devices: $allDevices, crew: $crew },
  filter: ({ serial }) => serial !== null,
  fn: ({ serial, devices, crew }, input) => ({
    serial: serial!,
    label: devices.find((d) => d.serial === serial)?.label ?? '',
    input,
    crew,
  }),
  target: enqueueFx,
});
sample({
  clock: enqueueFx.doneData,
  fn: (entry) => ({
    tone: 'success' as const,
    title: 'WORK RECORDED',
    message: `${entry.label || entry.serial}: ${recordText(entry.body)}.`,
  }),
  target: recordPopup.shown,
});

// Sending: after each record, when the page has its credential, when the network returns. One at a time.
sample({ clock: [pageMounted, enqueueFx.done, sendOutboxFx.finally, dismissEntryFx.done], target: loadOutboxFx });
sample({
  clock: [enqueueFx.done, loadDevicesFx.done, networkReturned],
  source: { token: $credential, pending: sendOutboxFx.pending },
  filter: ({ token, pending }) => token !== null && !pending,
  fn: ({ token }) => token!,
  target: sendOutboxFx,
});
sample({ clock: entryDismissed, target: dismissEntryFx });
// What was sent shows in the list (each device's last visit): read it again.
sample({
  clock: sendOutboxFx.doneData,
  source: $credential,
  filter: (token, { sent }) => token !== null && sent.length > 0,
  fn: (token) => token!,
  target: loadDevicesFx,
});

// The list for a start without signal: kept on each load, shown (with its time) when the server cannot be reached.
sample({ clock: loadDevicesFx.doneData, target: saveDevicesFx });
$savedAt.reset(loadDevicesFx.done);
sample({
  clock: loadDevicesFx.fail,
  filter: ({ error }) => error instanceof HttpError && error.status === 0,
  target: savedDevicesFx,
});
sample({ clock: savedDevicesFx.doneData, filter: Boolean, fn: (saved) => saved!.list, target: $devices });
sample({ clock: savedDevicesFx.doneData, filter: Boolean, fn: (saved) => saved!.at, target: $savedAt });
// With the list from the phone the page runs on the credential it was tried with (checked when the signal returns).
sample({
  clock: savedDevicesFx.doneData,
  source: $trying,
  filter: (t, saved) => t !== null && saved !== null,
  fn: (t) => t!,
  target: $credential,
});
sample({ clock: savedDevicesFx.doneData, filter: Boolean, fn: () => 'ready' as const, target: $status });

// A start without signal (the browser offline) draws at once: the list and the day's plan kept on the phone
// are read as the credential is tried, beside the network's reads, and shown while those have not answered (the network's
// answer replaces them; a refused credential still empties the page). Before, they were read only after
// the network failed (tests/bench/field-app.bench.ts, PERFORMANCE.md "Field app").
export const readKeptFx = createEffect(async () => {
  // Only when the browser knows it has no network: online, the kept list must not stand in for the server's.
  if (navigator.onLine) return { devices: null, plans: null };
  const [devices, plans] = await Promise.all([
    outbox.savedDevices(),
    outbox.saved<{ date: string; plans: ServicePlan[] }>('plans'),
  ]);
  return { devices, plans: plans && plans.value.date === phoneDay() ? { at: plans.at, plans: plans.value.plans } : null };
});
sample({ clock: tokenTried, target: readKeptFx });
const keptWhileLoading = sample({
  clock: readKeptFx.doneData,
  source: { status: $status, trying: $trying },
  filter: ({ status, trying }, kept) => status === 'loading' && trying !== null && kept.devices !== null,
  fn: ({ trying }, kept) => ({ token: trying!, at: kept.devices!.at, list: kept.devices!.list }),
});
sample({ clock: keptWhileLoading, fn: ({ list }) => list, target: $devices });
sample({ clock: keptWhileLoading, fn: ({ at }) => at, target: $savedAt });
sample({ clock: keptWhileLoading, fn: ({ token }) => token, target: $credential });
const keptPlans = sample({
  clock: readKeptFx.doneData,
  source: { loaded: $plansLoaded, pending: loadPlansFx.pending },
  filter: ({ loaded, pending }, kept) => !loaded && pending && kept.plans !== null,
  fn: (_, kept) => kept.plans!,
});
sample({ clock: keptPlans, fn: ({ plans }) => plans, target: $plans });
sample({ clock: keptPlans, fn: ({ at }) => at, target: $plansKeptAt });

// The field app: its service worker registers when the page opens; a waiting version reloads only on the
// technician's Reload, and never while a record form is open (the button waits too: maintenance-page.tsx).
sample({ clock: pageMounted, target: pwaStarted });
sample({
  clock: reloadClicked,
  source: { ready: $updateReady, serial: $recordSerial },
  filter: ({ ready, serial }) => ready && serial === null,
  target: applyUpdateFx,
});

/** What a record says it did, in words (the popup after Save: "Beach: left pump refilled from batch B-7, repaired."). */
function recordText(body: OutboxEntry['body']): string {
  const parts = [
    ...(body.refills ?? []).map((r) => `${r.pump === 1 ? 'left' : 'right'} pump refilled from batch ${r.batch}`),
    ...(body.battery_replaced ? ['battery replaced'] : []),
    ...(body.repaired ? ['repaired'] : []),
    ...(body.actions ?? [])
      .filter((a) => a !== 'refilled' || !body.refills?.length)
      .map((a) => MAINTENANCE_ACTION_TEXT[a].toLowerCase()),
  ];
  return [...new Set(parts)].join(', ') || 'work';
}
