import type { Subscription } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import {
  $liveSerials,
  deviceAnswered,
  devicesPatched,
  devicesRequested,
  pinsChanged,
  type DevicePatch,
  type PinDelta,
} from '../../entities/device';
import { overviewPatched, overviewRequested } from '../../entities/overview';
import { readToken } from '../../shared/api';
import {
  $connected,
  connectRequested,
  deviceChangedReceived,
  disconnectRequested,
  overviewChangedReceived,
  pinsChangedReceived,
  socketConnected,
  socketDisconnected,
  subscribeFx,
  unsubscribeFx,
} from '../../shared/realtime';
import { yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * Realtime into the device store: one socket per tab, connected once signed in. It subscribes to the
 * cards of the devices views show ($liveSerials: list rows read, the panel's site, single answers; not
 * every pin, issue 46) and to the overview, and to the pin deltas of the map (`pins:changed`, issue 46: pins added, changed or gone
 * are applied to the pin store, the feed is not read again); `device:changed` patches and pin deltas are
 * merged per serial and applied at most every FLUSH_MS, so a burst costs one store update. After a reconnect it re-subscribes and re-fetches the REST snapshot,
 * since changes made while disconnected were never pushed.
 */
export const FLUSH_MS = 250;
/** Serials per subscribe message: keeps each message small with 10,000 devices. */
export const SUBSCRIBE_CHUNK = 500;

export const liveUpdatesStarted = createEvent();
export const liveUpdatesStopped = createEvent();
/** The merged patches of one throttle window, on their way into the device store. */
const patchesFlushed = createEvent<Record<string, DevicePatch>>();

/** Patches waiting for the next flush, merged per serial (the latest value of each field wins). */
type PatchBuffer = { patches: Map<string, DevicePatch> };
const $buffer = createStore<PatchBuffer | null>(null, { serialize: 'ignore' });
const $subscribed = createStore<ReadonlySet<string>>(new Set(), { serialize: 'ignore' });
export const $live = createStore(false);

const readTokenFx = createEffect(() => readToken() ?? null);
export const flushTimerFx = createEffect(() => new Promise<void>((resolve) => window.setTimeout(resolve, FLUSH_MS)));

export const subscribeSerialsFx = createEffect(async (serials: readonly string[]) => {
  const subscribed: string[] = [];
  for (let at = 0; at < serials.length; at += SUBSCRIBE_CHUNK) {
    const chunk = serials.slice(at, at + SUBSCRIBE_CHUNK);
    const subscription: Subscription = { topic: 'deviceCards', serials: chunk };
    const ack = await subscribeFx(subscription);
    if (ack.ok) subscribed.push(...chunk);
  }
  return subscribed;
});
export const unsubscribeSerialsFx = createEffect(async (serials: readonly string[]) => {
  for (let at = 0; at < serials.length; at += SUBSCRIBE_CHUNK)
    await unsubscribeFx({ topic: 'deviceCards', serials: serials.slice(at, at + SUBSCRIBE_CHUNK) });
});
export const subscribeOverviewFx = createEffect(async () => {
  await subscribeFx({ topic: 'overview' });
});
/** The map's pin deltas (issue 46): pins changed, added or gone, pushed from the change path. */
export const subscribePinsFx = createEffect(async () => {
  await subscribeFx({ topic: 'pins' });
});

/**
 * Pin deltas waiting for the next flush, merged by serial: the latest pin of a serial wins, and a serial
 * gone after an upsert (or back after a removal) ends as the last message says. One store update per
 * window however many deltas came (at 100,000 devices each update copies the pin record once).
 */
type PinBuffer = { upserts: Map<string, PinDelta['upserts'][number]>; removed: Set<string> };
const $pinBuffer = createStore<PinBuffer | null>(null, { serialize: 'ignore' });
function mergePinDelta(buffer: PinBuffer | null, delta: PinDelta): PinBuffer {
  const next = buffer ?? { upserts: new Map(), removed: new Set<string>() };
  for (const serial of delta.removed) {
    next.upserts.delete(serial);
    next.removed.add(serial);
  }
  for (const tuple of delta.upserts) {
    next.removed.delete(tuple[0]);
    next.upserts.set(tuple[0], tuple);
  }
  return { ...next };
}

/** Starts a buffer on the first patch of a window, so no two scopes ever share one map. */
export function mergePatch(buffer: PatchBuffer | null, serial: string, patch: DevicePatch): PatchBuffer {
  const patches = buffer?.patches ?? new Map<string, DevicePatch>();
  const previous = patches.get(serial);
  patches.set(serial, previous ? { ...previous, ...patch } : patch);
  // A new wrapper around the same map: O(1) per message, however many are waiting.
  return { patches };
}

$live.on(liveUpdatesStarted, () => true).reset(liveUpdatesStopped);
/**
 * A device answered over REST (a write's answer, the panel's read) is the newest state the client has of
 * it: a patch still waiting in the buffer was pushed before that answer and would put older values back
 * (a cancelled pending change reappearing) until the next push. A push from a poll after the write carries
 * what the answer carries, so dropping it loses nothing.
 */
export function dropPatch(buffer: PatchBuffer | null, serial: string): PatchBuffer | null {
  if (!buffer?.patches.has(serial)) return buffer;
  buffer.patches.delete(serial);
  return { patches: buffer.patches };
}

$buffer
  .on(deviceChangedReceived, (buffer, { serial, patch }) => mergePatch(buffer, serial, patch as DevicePatch))
  .on(deviceAnswered, (buffer, device) => dropPatch(buffer, device.serial))
  .reset(patchesFlushed)
  .reset(liveUpdatesStopped);
$subscribed
  .on(subscribeSerialsFx.doneData, (set, serials) => new Set([...set, ...serials]))
  .on(unsubscribeSerialsFx, (set, serials) => {
    const next = new Set(set);
    for (const serial of serials) next.delete(serial);
    return next;
  })
  .reset(socketDisconnected, liveUpdatesStopped);

sample({ clock: liveUpdatesStarted, target: readTokenFx });
sample({
  clock: readTokenFx.doneData,
  filter: (token): token is string => token !== null,
  fn: (token) => ({ token: token as string }),
  target: connectRequested,
});
sample({ clock: liveUpdatesStopped, target: disconnectRequested });

$pinBuffer.on(pinsChangedReceived, mergePinDelta).reset(liveUpdatesStopped);
// Throttle: the first patch of a quiet period starts the timer, the timer's end applies everything.
sample({
  clock: [deviceChangedReceived, pinsChangedReceived],
  source: flushTimerFx.pending,
  filter: (pending) => !pending,
  fn: () => undefined,
  target: flushTimerFx,
});
sample({
  clock: flushTimerFx.done,
  source: $buffer,
  filter: (buffer): buffer is PatchBuffer => buffer !== null && buffer.patches.size > 0,
  fn: (buffer) => Object.fromEntries((buffer as PatchBuffer).patches),
  target: patchesFlushed,
});
sample({ clock: patchesFlushed, target: devicesPatched });
const pinsFlushed = sample({
  clock: flushTimerFx.done,
  source: $pinBuffer,
  filter: (buffer): buffer is PinBuffer => buffer !== null && (buffer.upserts.size > 0 || buffer.removed.size > 0),
  fn: (buffer): PinDelta => ({
    upserts: [...(buffer as PinBuffer).upserts.values()],
    removed: [...(buffer as PinBuffer).removed],
  }),
});
$pinBuffer.reset(pinsFlushed);
sample({ clock: pinsFlushed, target: pinsChanged });

// Only the overall counts: a county's pushes (location set) belong to whoever subscribed to that county.
sample({ clock: overviewChangedReceived, filter: ({ location }) => location === null, target: overviewPatched });

// On every (re)connect: subscribe what is loaded and the overview; after a reconnect, re-fetch too.
sample({ clock: socketConnected, source: $liveSerials, target: subscribeSerialsFx });
sample({ clock: socketConnected, fn: () => undefined, target: [subscribeOverviewFx, subscribePinsFx] });
sample({ clock: socketConnected, filter: ({ reconnect }) => reconnect, target: [devicesRequested, overviewRequested] });
// Devices that arrive later (a snapshot with new serials) are subscribed as they come.
const newSerials = sample({
  clock: $liveSerials,
  source: { subscribed: $subscribed, connected: $connected },
  filter: ({ connected }) => connected,
  fn: ({ subscribed }, serials) => serials.filter((serial) => !subscribed.has(serial)),
});
sample({ clock: newSerials, filter: (serials) => serials.length > 0, target: subscribeSerialsFx });
// Devices no view shows any more are let go, so the pollers stop reading them for this tab. Checked again
// when a subscribe comes back: a device that left the views while its subscribe was on its way.
const goneSerials = sample({
  clock: [$liveSerials.updates, subscribeSerialsFx.done],
  source: { subscribed: $subscribed, connected: $connected, live: $liveSerials },
  filter: ({ connected }) => connected,
  fn: ({ subscribed, live }) => {
    const shown = new Set(live);
    return [...subscribed].filter((serial) => !shown.has(serial));
  },
});
sample({ clock: goneSerials, filter: (serials) => serials.length > 0, target: unsubscribeSerialsFx });
