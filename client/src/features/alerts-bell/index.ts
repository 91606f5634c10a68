export { $unread, bellClicked, bellStarted } from './model';
export { AlertsBell, bellLabel } from './ui/alerts-bell';
