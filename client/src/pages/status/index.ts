export { StatusPage } from './ui/status-page';
