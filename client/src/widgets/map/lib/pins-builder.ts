import {
  createPinsBuilder,
  packPins,
  postedColumns,
  transferablesOf,
  unpackPins,
  type PinColumns,
  type PinSource,
  type PinsBuild,
} from './pins';

/**
 * Builds the map's pins in a Web Worker (pins.worker.ts), or on this thread where there is none (unit
 * tests, a browser that refuses the worker): the same builder either way, so the answer is the same. The
 * pins go packed in columns (PinColumns, their numbers transferred, their strings joined into one each:
 * PostedPinColumns) and come back as JSON text (PinsBuild):
 * at 100,000 pins neither way is an object graph for the page's thread to copy.
 */
let worker: Worker | null | undefined;
let lastId = 0;
/** This thread's builder: its first build after the worker failed has no diff (the map takes the whole). */
let here: ReturnType<typeof createPinsBuilder> | null = null;
const buildHere = (id: number, columns: PinColumns) => (here ??= createPinsBuilder())(id, unpackPins(columns));
const waiting = new Map<number, { columns: PinColumns; resolve: (build: PinsBuild) => void }>();

function pinsWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = typeof Worker === 'function' ? new Worker(new URL('./pins.worker.ts', import.meta.url), { type: 'module' }) : null;
  } catch {
    worker = null;
  }
  worker?.addEventListener('message', (event: MessageEvent<PinsBuild>) => {
    waiting.get(event.data.id)?.resolve(event.data);
    waiting.delete(event.data.id);
  });
  // A worker that cannot start (its script refused): build here from now on, the waiting ones included.
  worker?.addEventListener('error', () => {
    worker?.terminate();
    worker = null;
    for (const [id, { columns, resolve }] of waiting) resolve(buildHere(id, columns));
    waiting.clear();
  });
  return worker;
}

/** The pins of these devices (those with a place and `include`d). */
export function buildPins(devices: Iterable<PinSource>, include?: (device: PinSource) => boolean): Promise<PinsBuild> {
  const id = ++lastId;
  const columns = packPins(devices, include);
  const target = pinsWorker();
  if (!target) return Promise.resolve(buildHere(id, columns));
  return new Promise((resolve) => {
    // Kept for a fallback build here: transferred, the typed arrays are gone from this side.
    const kept = {
      ...columns,
      coords: columns.coords.slice(),
      groups: columns.groups.slice(),
      numbers: columns.numbers.slice(),
      statuses: columns.statuses.slice(),
    };
    waiting.set(id, { columns: kept, resolve });
    const posted = postedColumns(columns);
    target.postMessage({ id, columns: posted }, transferablesOf(posted));
  });
}
