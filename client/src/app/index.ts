export { App } from './App';
export { appStarted } from './model';
