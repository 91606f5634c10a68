/// <reference lib="webworker" />
import { buildTransferables, createPinsBuilder, receivedColumns, unpackPins, type PostedPinColumns } from './pins';

/**
 * The map's pins built off the page's main thread (issue 46): the visible pins come in packed in columns,
 * their GeoJSON collection (each site's pins fanned out, a feature each) goes back as JSON bytes, transferred, with its
 * diff from the build before (PinsBuild). At 100,000 devices building on the page's thread was 855 ms, and
 * posting objects each way cost the page's thread 587 and 890 ms of structured-clone copies; typed arrays
 * and one string cost it a fraction. Answers carry the request's id, so the page applies a diff only onto
 * the build it was made from.
 */
const build = createPinsBuilder();

self.onmessage = (event: MessageEvent<{ id: number; columns: PostedPinColumns }>) => {
  const { id, columns } = event.data;
  const answer = build(id, unpackPins(receivedColumns(columns)));
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(answer, buildTransferables(answer));
};
