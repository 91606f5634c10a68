export { $live, flushTimerFx, liveUpdatesStarted, liveUpdatesStopped } from './model';
