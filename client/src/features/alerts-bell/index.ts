export { bellClicked } from './model';
export { AlertsBell } from './ui/alerts-bell';
