export { pauseDevice, pauseText } from './model';
