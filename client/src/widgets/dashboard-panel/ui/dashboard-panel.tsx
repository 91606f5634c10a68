import { useUnit } from 'effector-react';
import { useEffect, type ReactNode } from 'react';
import { warmCollatorWhenIdle } from '../../../shared/lib';
import { ChevronIcon, Panel, tabPanelProps, Tabs, type TabItem } from '../../../shared/ui';
import {
  $collapsed,
  $countyNames,
  $filterView,
  $isMarketPartner,
  $selectedCounty,
  $tab,
  collapseToggled,
  countyCleared,
  filterViewClosed,
  tabSelected,
  type DashboardTab,
} from '../model';
import { DeviceListTab } from './device-list-tab';
import { FilterList } from './filter-list';
import { OverviewTab } from './overview-tab';
import styles from './dashboard-panel.module.css';

const ID = 'dashboard';
const ALL_TABS: readonly TabItem<DashboardTab>[] = [
  { key: 'overview', label: 'OVERVIEW' },
  { key: 'deviceList', label: 'DEVICE LIST' },
  { key: 'batchList', label: 'BATCH LIST' },
  { key: 'subscriptions', label: 'SUBSCRIPTIONS' },
];

/**
 * What other widgets draw inside the dashboard, passed in by the page that shows it (a widget does not
 * import another widget): the BATCH LIST and SUBSCRIPTIONS tabs, DEVICE LIST's BRAND view and the report
 * list a tile opens (with the way back to the tabs).
 */
export type DashboardSlots = {
  batchList: ReactNode;
  subscriptions: ReactNode;
  brandList: ReactNode;
  reportList: (onBack: () => void) => ReactNode;
  /** The Service day view (issue 48), opened from the Service Day tile (distributors and partners). */
  serviceDay: (onBack: () => void) => ReactNode;
};

/**
 * The main dashboard panel (spec section 2), top left over the map: collapsible to its header, and on a
 * tablet never wider than the space left of the clock and Active Pin panels.
 */
export function DashboardPanel({ slots }: { slots: DashboardSlots }) {
  const [closeFilter] = useUnit([filterViewClosed]);
  const [collapsed, toggle, tab, select, filterView, marketPartner, county, countyNames, clearCounty] = useUnit([
    $collapsed,
    collapseToggled,
    $tab,
    tabSelected,
    $filterView,
    $isMarketPartner,
    $selectedCounty,
    $countyNames,
    countyCleared,
  ]);
  const tabs = marketPartner ? ALL_TABS.filter((t) => t.key !== 'subscriptions') : ALL_TABS;
  // The filter lists sort their options by name when first opened: the collator is made before that, at idle.
  useEffect(warmCollatorWhenIdle, []);
  return (
    <Panel
      className={[styles.panel, collapsed ? styles.collapsed : ''].join(' ')}
      aria-labelledby="dashboard-title"
      data-testid="dashboard-panel"
    >
      <header className={styles.header}>
        <h2 id="dashboard-title" className={styles.title}>
          Dashboard
        </h2>
        {county !== null ? (
          <span className={styles.scope}>
            <span className={styles.scopeName} title={countyNames.get(county)}>
              {countyNames.get(county) ?? 'County'}
            </span>
            <button type="button" className={styles.scopeClear} onClick={() => clearCounty()}>
              All counties
            </button>
          </span>
        ) : (
          <span className={styles.scopeAll}>All counties</span>
        )}
        <button
          type="button"
          className={styles.collapse}
          aria-expanded={!collapsed}
          aria-controls="dashboard-body"
          aria-label={collapsed ? 'Expand the dashboard' : 'Collapse the dashboard'}
          title={collapsed ? 'Expand' : 'Collapse'}
          onClick={() => toggle()}
        >
          <ChevronIcon size={18} className={collapsed ? styles.chevronDown : styles.chevronUp} />
        </button>
      </header>
      <div id="dashboard-body" className={styles.body} hidden={collapsed}>
        {filterView === 'ReportList' ? (
          slots.reportList(closeFilter)
        ) : filterView === 'ServiceDay' ? (
          slots.serviceDay(closeFilter)
        ) : filterView ? (
          <FilterList />
        ) : (
          <>
            <Tabs items={tabs} selected={tab} onSelect={select} label="Dashboard" idPrefix={ID} compact />
            <div {...tabPanelProps(ID, tab)} className={styles.tabPanel}>
              {tab === 'overview' ? <OverviewTab /> : null}
              {tab === 'deviceList' ? <DeviceListTab brandList={slots.brandList} /> : null}
              {tab === 'batchList' ? slots.batchList : null}
              {tab === 'subscriptions' ? slots.subscriptions : null}
            </div>
          </>
        )}
      </div>
    </Panel>
  );
}
