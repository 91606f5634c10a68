export { NotificationRules } from './ui/notification-rules';
