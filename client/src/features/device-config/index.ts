export { deviceConfigText, setDeviceConfig } from './model';
