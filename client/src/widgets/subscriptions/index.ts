export { SubscriptionsTab } from './ui/subscriptions-tab';
