import { Suspense, type ComponentType } from 'react';
import { LoadBoundary, StateMessage, useLazyPart } from '../../../shared/ui';
import { DashboardPanel, type DashboardSlots } from '../../../widgets/dashboard-panel';

/**
 * The dashboard's tabs and views other than its own lists (Batch List, Subscriptions, the brand list, the
 * report list): each is its own chunk, downloaded and evaluated when it is first opened. Their models
 * start from their own view's mount (their `...Opened` events), so nothing of theirs needs to exist before;
 * what they cost to evaluate (their effector units, the batch and brand forms' zod schemas) stays out of
 * the map page's one long module-evaluation task on a slow phone (issue 16).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each view's own props, checked where it is used
type Load = () => Promise<{ default: ComponentType<any> }>;
const loadBatchList: Load = () => import('../../../widgets/batch-list').then((m) => ({ default: m.BatchListTab }));
const loadSubscriptions: Load = () => import('../../../widgets/subscriptions').then((m) => ({ default: m.SubscriptionsTab }));
const loadBrandList: Load = () => import('../../../widgets/brand-list').then((m) => ({ default: m.BrandListView }));
const loadReportList: Load = () => import('../../../widgets/report-list').then((m) => ({ default: m.ReportListView }));
const loadServiceDay: Load = () => import('../../../widgets/service-day').then((m) => ({ default: m.ServiceDayView }));

/** A dashboard view from its chunk: Loading… while it arrives, the failure and Try again if it does not. */
function LazyView({ load, props = {} }: { load: Load; props?: Record<string, unknown> }) {
  const { Part: View, forget } = useLazyPart(load);
  return (
    <LoadBoundary
      onRetry={forget}
      failure={(retry) => (
        <StateMessage status="failed" onRetry={retry}>
          This view could not be loaded.
        </StateMessage>
      )}
    >
      <Suspense fallback={<StateMessage status="loading">Loading…</StateMessage>}>
        <View {...props} />
      </Suspense>
    </LoadBoundary>
  );
}

/** The widgets the dashboard shows as its tabs and views: composed here, as widgets do not import widgets. */
const SLOTS: DashboardSlots = {
  batchList: <LazyView load={loadBatchList} />,
  subscriptions: <LazyView load={loadSubscriptions} />,
  brandList: <LazyView load={loadBrandList} />,
  reportList: (onBack) => <LazyView load={loadReportList} props={{ onBack }} />,
  serviceDay: (onBack) => <LazyView load={loadServiceDay} props={{ onBack }} />,
};

/** The map screen's dashboard, with the other widgets it shows. */
export function MapDashboard() {
  return <DashboardPanel slots={SLOTS} />;
}
