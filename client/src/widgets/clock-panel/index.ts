export { clockFace, type ClockFace } from './lib';
export { ClockPanel } from './ui/clock-panel';
