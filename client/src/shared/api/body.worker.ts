/// <reference lib="webworker" />
// One answer's body read off the page's thread (body-relay.ts); the page ends the worker when it is read.
import { relayBody, type BodyAsk } from './body-relay';

const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = ({ data }: MessageEvent<BodyAsk>) =>
  void relayBody(data, (message, transfer) => scope.postMessage(message, transfer ?? []));
