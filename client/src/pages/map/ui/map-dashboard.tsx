import { BatchListTab } from '../../../widgets/batch-list';
import { BrandListView } from '../../../widgets/brand-list';
import { DashboardPanel, type DashboardSlots } from '../../../widgets/dashboard-panel';
import { ReportListView } from '../../../widgets/report-list';
import { SubscriptionsTab } from '../../../widgets/subscriptions';

/** The widgets the dashboard shows as its tabs and views: composed here, as widgets do not import widgets. */
const SLOTS: DashboardSlots = {
  batchList: <BatchListTab />,
  subscriptions: <SubscriptionsTab />,
  brandList: <BrandListView />,
  reportList: (onBack) => <ReportListView onBack={onBack} />,
};

/** The map screen's dashboard, with the other widgets it shows. */
export function MapDashboard() {
  return <DashboardPanel slots={SLOTS} />;
}
