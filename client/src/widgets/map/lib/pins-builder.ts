import { yieldToBrowser, yieldWhenDue } from '../../../shared/lib';
import { CLUSTER_OPTIONS, createPinClusters, type Bounds, type PinView } from './pin-clusters';
import {
  createPinsBuilder,
  packPostedPins,
  receivedColumns,
  transferablesOf,
  unpackPins,
  type PinSource,
  type PinsBuild,
} from './pins';

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
/** This thread's clusters, of its builds (where there is no worker). */
const clustersHere = createPinClusters(CLUSTER_OPTIONS);
const buildHere = async (id: number, devices: readonly PinSource[]) => {
  const builder = (here ??= createPinsBuilder());
  const build = builder(id, unpackPins(receivedColumns(await packPostedPins(devices, yieldWhenDue()))));
  const latest = builder.latest();
  if (latest) clustersHere.load(latest.id, latest.collection);
  return build;
};
/** Views and expansion zooms asked of the worker, by request number. */
type ViewAnswer = { kind: 'view'; req: number; build: number; view: PinView };
type ExpandAnswer = { kind: 'expand'; req: number; zoom: number | null };
let lastAsk = 0;
const asked = new Map<number, { resolve: (answer: ViewAnswer | ExpandAnswer) => void; here: () => ViewAnswer | ExpandAnswer }>();
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
  worker?.addEventListener('message', (event: MessageEvent<PinsBuild | ViewAnswer | ExpandAnswer>) => {
    const answer = event.data;
    if ('kind' in answer) {
      asked.get(answer.req)?.resolve(answer);
      asked.delete(answer.req);
      return;
    }
    waiting.get(answer.id)?.resolve(answer);
    waiting.delete(answer.id);
  });
  // A worker that cannot start (its script refused): build here from now on, the waiting ones included.
  worker?.addEventListener('error', () => {
    worker?.terminate();
    worker = null;
    // A build that fails here as well rejects its caller's promise, as a build here always did.
    for (const [id, { devices, resolve, reject }] of waiting) buildHere(id, devices).then(resolve, reject);
    waiting.clear();
    // Views asked meanwhile are answered here, of this thread's builds (the map asks again after each build).
    for (const { resolve, here } of asked.values()) resolve(here());
    asked.clear();
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
    target.postMessage({ kind: 'build', id, columns: posted }, transferablesOf(posted));
  });
}

/** Asks the worker, or answers here where there is none. */
function ask<T extends ViewAnswer | ExpandAnswer>(message: Record<string, unknown>, here: () => T): Promise<T> {
  const target = pinsWorker();
  if (!target) return Promise.resolve(here());
  const req = ++lastAsk;
  return new Promise((resolve) => {
    asked.set(req, { resolve: resolve as (answer: ViewAnswer | ExpandAnswer) => void, here });
    target.postMessage({ ...message, req });
  });
}

/**
 * The clusters and single pins within `bounds` at map zoom `zoom`, of the latest build clustered (pin-clusters.ts),
 * with that build's id: asked after a build, the answer is of it or a later one.
 */
export function pinsView(bounds: Bounds, zoom: number): Promise<{ build: number; view: PinView }> {
  const here = (): ViewAnswer => ({ kind: 'view', req: 0, build: clustersHere.build(), view: clustersHere.view(bounds, zoom) });
  return ask({ kind: 'view', bounds, zoom }, here);
}

/** The zoom at which a cluster of the latest build splits (null: not a cluster of it any more). */
export async function clusterExpansionZoom(clusterId: number): Promise<number | null> {
  const here = (): ExpandAnswer => ({ kind: 'expand', req: 0, zoom: clustersHere.expansionZoom(clusterId) });
  return (await ask({ kind: 'expand', clusterId }, here)).zoom;
}
