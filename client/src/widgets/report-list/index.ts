export { ReportListView } from './ui/report-list-view';
