import { yieldToBrowser, yieldWhenDue } from '../../../shared/lib';
import {
  createPinsBuilder,
  packPostedPins,
  receivedColumns,
  transferablesOf,
  unpackPins,
  type PinSource,
  type PinsBuild,
  type ViewBox,
} from './pins';
import type { PinsWorkerRequest } from './pins.worker';

/**
 * Builds the map's pins in a Web Worker (pins.worker.ts), or on this thread where there is none (unit
 * tests, a browser that refuses the worker): the same builder either way, so the answer is the same. The
 * pins go packed in columns (PinColumns: their numbers in typed arrays, their strings joined and encoded as
 * UTF-8 bytes a slice each, all transferred: PostedPinColumns) and come back as JSON bytes, transferred
 * (PinsBuild): at 100,000 pins neither way is an object graph for the page's thread to copy. They are packed a
 * slice at a time (packPostedPins), as many slices a task as fit in its time (yieldWhenDue), so the page
 * answers input between tasks.
 */
let worker: Worker | null | undefined;
let lastId = 0;
/** This thread's builder: its first build after the worker failed has no diff (the map takes the whole). */
let here: ReturnType<typeof createPinsBuilder> | null = null;
const buildHere = async (id: number, devices: readonly PinSource[]) =>
  (here ??= createPinsBuilder()).build(id, unpackPins(receivedColumns(await packPostedPins(devices, yieldWhenDue()))));
/** Builds the worker was asked for, with their devices: a worker that fails leaves them to this thread. */
const waiting = new Map<
  number,
  { devices: readonly PinSource[]; resolve: (build: PinsBuild) => void; reject: (error: unknown) => void }
>();

function pinsWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = typeof Worker === 'function' ? new Worker(new URL('./pins.worker.ts', import.meta.url), { type: 'module' }) : null;
  } catch {
    worker = null;
  }
  worker?.addEventListener('message', (event: MessageEvent<PinsWorkerAnswer>) => {
    const answer = event.data;
    if (answer.kind === 'view') {
      views.get(answer.id)?.(answer.json);
      views.delete(answer.id);
      return;
    }
    waiting.get(answer.build.id)?.resolve(answer.build);
    waiting.delete(answer.build.id);
  });
  // A worker that cannot start (its script refused): build here from now on, the waiting ones included.
  worker?.addEventListener('error', () => {
    worker?.terminate();
    worker = null;
    // A build that fails here as well rejects its caller's promise, as a build here always did.
    for (const [id, { devices, resolve, reject }] of waiting) buildHere(id, devices).then(resolve, reject);
    waiting.clear();
    // Views asked of it answer empty: the builds above answer again, and the map asks for the view again.
    for (const answer of views.values()) answer(new Uint8Array(0));
    views.clear();
  });
  return worker;
}

/** The pins of these devices (those with a place). */
export async function buildPins(devices: readonly PinSource[]): Promise<PinsBuild> {
  const id = ++lastId;
  const target = pinsWorker();
  if (!target) return buildHere(id, devices);
  // Packed from the next task: a build is asked for in the task that hands the pins to the stores.
  await yieldToBrowser();
  const posted = await packPostedPins(devices, yieldWhenDue());
  return new Promise((resolve, reject) => {
    // Transferred, the columns are gone from this side: a fallback build here packs the devices again.
    waiting.set(id, { devices, resolve, reject });
    target.postMessage({ kind: 'build', id, columns: posted } satisfies PinsWorkerRequest, transferablesOf(posted));
  });
}

type PinsWorkerAnswer = { kind: 'build'; build: PinsBuild } | { kind: 'view'; id: number; json: Uint8Array };
let lastView = 0;
const views = new Map<number, (json: Uint8Array) => void>();

/**
 * The pins of the latest build in `box` as GeoJSON bytes (a collection of PinFeatures): the devices the
 * offline map draws where clustering stops. Asked of whichever builder made the builds; empty bytes when
 * the worker failed meanwhile (the caller asks again once the pins are built again).
 */
export async function viewPins(box: ViewBox): Promise<Uint8Array> {
  const target = pinsWorker();
  if (!target) return (here ??= createPinsBuilder()).view(box);
  const id = ++lastView;
  return new Promise((resolve) => {
    views.set(id, resolve);
    target.postMessage({ kind: 'view', id, box } satisfies PinsWorkerRequest);
  });
}
