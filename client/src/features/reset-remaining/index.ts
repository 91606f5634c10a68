export { RESET_DONE, resetRemaining } from './model';
