export { ClockPanel } from './ui/clock-panel';
