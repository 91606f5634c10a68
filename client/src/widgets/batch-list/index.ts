export { BatchListTab } from './ui/batch-list-tab';
