import { lazy, Suspense, type ReactNode } from 'react';
import { Spinner } from '../../../shared/ui';
import { DashboardPanel, type DashboardSlots } from '../../../widgets/dashboard-panel';
import styles from './map-page.module.css';

/**
 * The dashboard's tabs and views other than its own lists (Batch List, Subscriptions, the brand list, the
 * report list): each is its own chunk, downloaded and evaluated when it is first opened. Their models
 * start from their own view's mount (their `...Opened` events), so nothing of theirs needs to exist before;
 * what they cost to evaluate (their effector units, the batch and brand forms' zod schemas) stays out of
 * the map page's one long module-evaluation task on a slow phone (issue 16).
 */
const BatchListTab = lazy(() => import('../../../widgets/batch-list').then((m) => ({ default: m.BatchListTab })));
const SubscriptionsTab = lazy(() => import('../../../widgets/subscriptions').then((m) => ({ default: m.SubscriptionsTab })));
const BrandListView = lazy(() => import('../../../widgets/brand-list').then((m) => ({ default: m.BrandListView })));
const ReportListView = lazy(() => import('../../../widgets/report-list').then((m) => ({ default: m.ReportListView })));

/** What a slot shows while its chunk arrives (once per session: later openings find it loaded). */
function Slot({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p role="status" className={styles.slotLoading}>
          <Spinner size={16} /> Loading…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}

/** The widgets the dashboard shows as its tabs and views: composed here, as widgets do not import widgets. */
const SLOTS: DashboardSlots = {
  batchList: (
    <Slot>
      <BatchListTab />
    </Slot>
  ),
  subscriptions: (
    <Slot>
      <SubscriptionsTab />
    </Slot>
  ),
  brandList: (
    <Slot>
      <BrandListView />
    </Slot>
  ),
  reportList: (onBack) => (
    <Slot>
      <ReportListView onBack={onBack} />
    </Slot>
  ),
};

/** The map screen's dashboard, with the other widgets it shows. */
export function MapDashboard() {
  return <DashboardPanel slots={SLOTS} />;
}
