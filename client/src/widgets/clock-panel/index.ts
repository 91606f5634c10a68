export { $now, clockStarted, clockStopped, clockTicked, startTimerFx } from './model';
export { clockFace, type ClockFace } from './lib';
export { ClockPanel } from './ui/clock-panel';
