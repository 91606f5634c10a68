import { formatNumber, plural, pluralWord } from '@fleet/shared';
import { LabelsActions } from '../../../features/device-labels';
import { useUnit } from 'effector-react';
import type { ReactNode } from 'react';
import { addDeviceOpened } from '../../../features/device-form';
import {
  AlertIcon,
  ArrowLeftIcon,
  PlusIcon,
  SearchIcon,
  Spinner,
  tabPanelProps,
  Tabs,
  VirtualList,
  type TabItem,
  type VirtualListProps,
} from '../../../shared/ui';
import { countyCardName, type CountyRow, type StatusTally } from '../lib/dashboard-lib';
import {
  $batchFilter,
  $batchOptions,
  $canAddDevice,
  $countyNames,
  $countyRows,
  $countyRowsStatus,
  $deviceListTab,
  $drillCounty,
  $isMarketPartner,
  $partnerCountyRows,
  $partnerCountyRowsStatus,
  $partnerRowsStatus,
  $partnerSearch,
  $selectedCounty,
  $selectedPartner,
  $siteRows,
  $siteRowsStatus,
  $visiblePartners,
  batchFilterChanged,
  countyClicked,
  countyDrilledIn,
  deviceCardClicked,
  deviceListTabSelected,
  drillBackClicked,
  partnerClicked,
  partnerSearchChanged,
  type DeviceListTab as SubTab,
} from '../model';
import styles from './dashboard-panel.module.css';

const ID = 'device-list';
/** First guesses of a card's height (px, gap included); each drawn card is measured (issue 46: 1,251 site cards in one county). */
const COUNTY_CARD_HEIGHT = 92;
const SITE_CARD_HEIGHT = 140;
const PARTNER_CARD_HEIGHT = 64;
const ALL_SUB_TABS: readonly TabItem<SubTab>[] = [
  { key: 'county', label: 'COUNTY' },
  { key: 'brand', label: 'BRAND' },
  { key: 'partner', label: 'Market Partner' },
];

/** Cards (counties, sites, partners) in a virtual list of their own, each card measured as drawn. */
function CardList<T>(props: Omit<VirtualListProps<T>, 'className' | 'measured'>) {
  return <VirtualList className={styles.cardList} measured {...props} />;
}

function Counts({ row }: { row: StatusTally }) {
  return (
    <span className={styles.counts}>
      <span>
        <b>{formatNumber(row.total)}</b> total
      </span>
      <span className={styles.onlineText}>
        <b>{row.online}</b> online
      </span>
      <span className={styles.offlineText}>
        <b>{row.offline}</b> offline
      </span>
      <span className={row.warning > 0 ? styles.warningText : undefined}>
        {row.warning > 0 ? <AlertIcon size={14} aria-hidden="true" /> : null}
        <b>{row.warning}</b> warning
      </span>
    </span>
  );
}

type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';

/** While a roll-up is read (nothing held yet) or failed: says so where its cards go. Null once it has answered. */
function RollupState({ status, what }: { status: LoadStatus; what: string }) {
  if (status === 'failed')
    return (
      <p className={styles.error} role="alert">
        The {what} could not be loaded.
      </p>
    );
  if (status !== 'ready')
    return (
      <p className={styles.empty} role="status">
        <Spinner size={14} /> Loading {what}…
      </p>
    );
  return null;
}

function CountyCards({
  rows,
  status,
  selected,
  onSelect,
  onDrill,
}: {
  rows: readonly CountyRow[];
  status: LoadStatus;
  selected: number | null;
  onSelect: (id: number) => void;
  onDrill?: (id: number) => void;
}) {
  if (rows.length === 0)
    return status === 'ready' ? (
      <p className={styles.empty}>No devices in any county.</p>
    ) : (
      <RollupState status={status} what="counties" />
    );
  return (
    <CardList
      label="Counties"
      items={rows}
      rowHeight={COUNTY_CARD_HEIGHT}
      itemKey={(row) => row.id}
      renderItem={(row) => (
        <div className={styles.countyItem}>
          <button
            type="button"
            className={styles.countyCard}
            aria-pressed={selected === row.id}
            title={row.name}
            onClick={() => onSelect(row.id)}
            onDoubleClick={() => onDrill?.(row.id)}
            data-county={row.id}
          >
            <span className={styles.countyName}>{countyCardName(row.name)}</span>
            <Counts row={row} />
          </button>
          {onDrill && selected === row.id ? (
            <button type="button" className={styles.textButton} onClick={() => onDrill(row.id)}>
              Show sites
            </button>
          ) : null}
        </div>
      )}
    />
  );
}

function CountyView() {
  const [rows, rowsStatus, selected, drill, sites, sitesStatus, names, batches, batch, canAdd] = useUnit([
    $countyRows,
    $countyRowsStatus,
    $selectedCounty,
    $drillCounty,
    $siteRows,
    $siteRowsStatus,
    $countyNames,
    $batchOptions,
    $batchFilter,
    $canAddDevice,
  ]);
  const [select, drillIn, back, setBatch, openDevice, addDevice] = useUnit([
    countyClicked,
    countyDrilledIn,
    drillBackClicked,
    batchFilterChanged,
    deviceCardClicked,
    addDeviceOpened,
  ]);
  if (drill !== null) {
    return (
      <div className={styles.subView}>
        <div className={styles.listHeader}>
          <button type="button" className={styles.iconButton} onClick={() => back()} aria-label="Back to the counties">
            <ArrowLeftIcon size={18} />
          </button>
          <h3 className={styles.listTitle}>{names.get(drill) ?? 'County'}</h3>
          {sitesStatus === 'ready' ? <span className={styles.listCount}>{plural(sites.length, 'site')}</span> : null}
        </div>
        {sites.length === 0 ? <RollupState status={sitesStatus} what="sites" /> : null}
        <CardList
          label="Device groups"
          items={sites}
          rowHeight={SITE_CARD_HEIGHT}
          itemKey={(site) => site.id}
          renderItem={(site) => (
            <div className={styles.siteItem}>
              <button
                type="button"
                className={styles.countyCard}
                onClick={() => site.serial && openDevice(site.serial)}
                data-site={site.id}
              >
                <span className={styles.countyName}>{site.name}</span>
                <span className={styles.siteAddress}>{site.address}</span>
                <Counts row={site} />
              </button>
              <LabelsActions query={{ site: site.id }} name={site.name} what={`site ${site.name}`} />
            </div>
          )}
        />
      </div>
    );
  }
  return (
    <div className={styles.subView}>
      <div className={styles.toolbar}>
        <label className={styles.field}>
          <span className={styles.fieldLabel}>Batch</span>
          <select className={styles.select} value={batch ?? ''} onChange={(e) => setBatch(e.target.value || null)}>
            <option value="">All</option>
            {batches.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
        {canAdd ? (
          <button
            type="button"
            className={styles.addButton}
            onClick={() => addDevice()}
            aria-label="Add device"
            title="Add a device"
          >
            <PlusIcon size={18} />
            <span aria-hidden="true">Add device</span>
          </button>
        ) : null}
      </div>
      <p className={styles.hint}>
        Select a county to see it on the map and in the overview; double-click it (or Show sites) for its sites.
      </p>
      <CountyCards rows={rows} status={rowsStatus} selected={selected} onSelect={select} onDrill={drillIn} />
    </div>
  );
}

function PartnerView() {
  const [companies, companiesStatus, search, selected, counties, countiesStatus, county] = useUnit([
    $visiblePartners,
    $partnerRowsStatus,
    $partnerSearch,
    $selectedPartner,
    $partnerCountyRows,
    $partnerCountyRowsStatus,
    $selectedCounty,
  ]);
  const [setSearch, pick, selectCounty] = useUnit([partnerSearchChanged, partnerClicked, countyClicked]);
  const company = companies.find((c) => c.key === selected);
  return (
    <div className={styles.subView}>
      <label className={[styles.field, styles.searchField].join(' ')}>
        <span className="visually-hidden">Search companies</span>
        <SearchIcon size={16} className={styles.searchIcon} />
        <input
          className={styles.input}
          type="search"
          placeholder="Company"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          autoComplete="off"
        />
      </label>
      {companies.length === 0 ? (
        companiesStatus === 'ready' ? (
          <p className={styles.empty}>No market partners.</p>
        ) : (
          <RollupState status={companiesStatus} what="market partners" />
        )
      ) : null}
      <CardList
        label="Market partners"
        items={companies}
        rowHeight={PARTNER_CARD_HEIGHT}
        itemKey={(c) => c.key}
        renderItem={(c) => (
          <button type="button" className={styles.countyCard} aria-pressed={c.key === selected} onClick={() => pick(c.key)}>
            <span className={styles.countyName}>{c.company}</span>
            <span className={styles.counts}>
              <span>
                <b>{formatNumber(c.deviceCount)}</b> {pluralWord(c.deviceCount, 'device')}
              </span>
            </span>
          </button>
        )}
      />
      {company ? (
        <section aria-label={`Counties of ${company.company}`} className={styles.partnerCounties}>
          <h3 className={styles.sectionTitle}>Counties of {company.company}</h3>
          <CountyCards rows={counties} status={countiesStatus} selected={county} onSelect={selectCounty} />
        </section>
      ) : null}
    </div>
  );
}

/** DEVICE LIST: COUNTY, BRAND (the brand list widget, passed in) and Market Partner (hidden for market-partner users). */
export function DeviceListTab({ brandList }: { brandList: ReactNode }) {
  const [tab, select, marketPartner] = useUnit([$deviceListTab, deviceListTabSelected, $isMarketPartner]);
  const items = marketPartner ? ALL_SUB_TABS.filter((t) => t.key !== 'partner') : ALL_SUB_TABS;
  return (
    <div className={styles.deviceListTab}>
      <Tabs items={items} selected={tab} onSelect={select} label="Device list" idPrefix={ID} compact />
      <div {...tabPanelProps(ID, tab)} className={styles.subPanel}>
        {tab === 'county' ? <CountyView /> : null}
        {tab === 'brand' ? brandList : null}
        {tab === 'partner' && !marketPartner ? <PartnerView /> : null}
      </div>
    </div>
  );
}
