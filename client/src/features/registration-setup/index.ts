export { saveTimerFx, TIME_FAILED, TIME_SAVED } from './model';
