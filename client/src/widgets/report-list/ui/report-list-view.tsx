import { FilterList } from '../../dashboard-panel/ui/filter-list';

/**
 * The Report List view of the main dashboard (spec section 2 'Report List view'), opened from the Custom
 * Report tile (the ReportList filter view). Until the reports work builds it, the ReportList view is the
 * plain filter list of every device. `onBack` returns to the dashboard.
 */
export function ReportListView(_props: { onBack: () => void }) {
  return <FilterList />;
}
