/// <reference lib="webworker" />
import { CLUSTER_OPTIONS, createPinClusters, type Bounds } from './pin-clusters';
import { buildTransferables, createPinsBuilder, receivedColumns, unpackPins, type PostedPinColumns } from './pins';

/**
 * The map's pins built off the page's main thread (issue 46): the visible pins come in packed in columns,
 * their GeoJSON collection (each site's pins fanned out, a feature each) goes back as JSON bytes, transferred, with its
 * diff from the build before (PinsBuild). At 100,000 devices building on the page's thread was 855 ms, and
 * posting objects each way cost the page's thread 587 and 890 ms of structured-clone copies; typed arrays
 * and one string cost it a fraction. Answers carry the request's id, so the page applies a diff only onto
 * the build it was made from.
 *
 * The pins are clustered here too, once the build is answered (pin-clusters.ts), and the map asks for the
 * clusters and pins of its view ('view') and for a cluster's expansion zoom ('expand'), answered in turn:
 * a view asked after a build is of that build or a later one.
 */
const build = createPinsBuilder();
const clusters = createPinClusters(CLUSTER_OPTIONS);
const post = (message: unknown, transfer: Transferable[] = []) =>
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(message, transfer);

export type PinsWorkerAsk =
  | { kind: 'build'; id: number; columns: PostedPinColumns }
  | { kind: 'view'; req: number; bounds: Bounds; zoom: number }
  | { kind: 'expand'; req: number; clusterId: number };

self.onmessage = (event: MessageEvent<PinsWorkerAsk>) => {
  const ask = event.data;
  if (ask.kind === 'view')
    return post({ kind: 'view', req: ask.req, build: clusters.build(), view: clusters.view(ask.bounds, ask.zoom) });
  if (ask.kind === 'expand') return post({ kind: 'expand', req: ask.req, zoom: clusters.expansionZoom(ask.clusterId) });
  const answer = build(ask.id, unpackPins(receivedColumns(ask.columns)));
  post(answer, buildTransferables(answer));
  const latest = build.latest();
  if (latest) clusters.load(latest.id, latest.collection);
};
