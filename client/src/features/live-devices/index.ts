export { $live, FLUSH_MS, flushTimerFx, liveUpdatesStarted, liveUpdatesStopped, mergePatch, subscribeOverviewFx, subscribeSerialsFx, SUBSCRIBE_CHUNK } from './model';
