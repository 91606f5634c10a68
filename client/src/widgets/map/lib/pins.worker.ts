/// <reference lib="webworker" />
import { buildTransferables, createPinsBuilder, receivedColumns, unpackPins, type PostedPinColumns, type ViewBox } from './pins';

/**
 * The map's pins built off the page's main thread (issue 46): the visible pins come in packed in columns,
 * their GeoJSON collections (each site's pins fanned out, a feature each; and the sites, a feature each) go
 * back as JSON bytes, transferred, with their diffs from the build before (PinsBuild). At 100,000 devices
 * building on the page's thread was 855 ms, and posting objects each way cost the page's thread 587 and
 * 890 ms of structured-clone copies; typed arrays and one string cost it a fraction. Answers carry the
 * request's id, so the page applies a diff only onto the build it was made from. A `view` message asks for
 * the latest build's pins in a box (the devices the map draws where clustering stops).
 */
const builder = createPinsBuilder();
const scope = self as unknown as DedicatedWorkerGlobalScope;

export type PinsWorkerRequest =
  { kind: 'build'; id: number; columns: PostedPinColumns } | { kind: 'view'; id: number; box: ViewBox };

self.onmessage = (event: MessageEvent<PinsWorkerRequest>) => {
  const request = event.data;
  if (request.kind === 'view') {
    const json = builder.view(request.box);
    scope.postMessage({ kind: 'view', id: request.id, json }, [json.buffer as ArrayBuffer]);
    return;
  }
  const answer = builder.build(request.id, unpackPins(receivedColumns(request.columns)));
  scope.postMessage({ kind: 'build', build: answer }, buildTransferables(answer));
};
