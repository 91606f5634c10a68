import { formatNumber, plural, pluralWord } from '@fleet/shared';
import { LabelsActions } from '../../../features/device-labels';
import { useUnit } from 'effector-react';
import type { ReactNode } from 'react';
import { addDeviceOpened } from '../../../features/device-form';
import { AlertIcon, ArrowLeftIcon, PlusIcon, SearchIcon, tabPanelProps, Tabs, type TabItem } from '../../../shared/ui';
import { countyCardName, type CountyRow, type StatusTally } from '../lib/dashboard-lib';
import {
  $batchFilter,
  $batchOptions,
  $canAddDevice,
  $countyNames,
  $countyRows,
  $deviceListTab,
  $drillCounty,
  $isMarketPartner,
  $partnerCountyRows,
  $partnerSearch,
  $selectedCounty,
  $selectedPartner,
  $siteRows,
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
const ALL_SUB_TABS: readonly TabItem<SubTab>[] = [
  { key: 'county', label: 'COUNTY' },
  { key: 'brand', label: 'BRAND' },
  { key: 'partner', label: 'Market Partner' },
];

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

function CountyCards({
  rows,
  selected,
  onSelect,
  onDrill,
}: {
  rows: readonly CountyRow[];
  selected: number | null;
  onSelect: (id: number) => void;
  onDrill?: (id: number) => void;
}) {
  if (rows.length === 0) return <p className={styles.empty}>No devices in any county.</p>;
  return (
    <ul className={styles.cards} aria-label="Counties">
      {rows.map((row) => (
        <li key={row.id} className={styles.countyItem}>
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
        </li>
      ))}
    </ul>
  );
}

function CountyView() {
  const [rows, selected, drill, sites, names, batches, batch, canAdd] = useUnit([
    $countyRows,
    $selectedCounty,
    $drillCounty,
    $siteRows,
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
          <span className={styles.listCount}>{plural(sites.length, 'site')}</span>
        </div>
        <ul className={styles.cards} aria-label="Device groups">
          {sites.map((site) => (
            <li key={site.id}>
              <button
                type="button"
                className={styles.countyCard}
                onClick={() => openDevice(site.serials[0]!)}
                data-site={site.id}
              >
                <span className={styles.countyName}>{site.name}</span>
                <span className={styles.siteAddress}>{site.address}</span>
                <Counts row={site} />
              </button>
              <LabelsActions query={{ site: site.id }} name={site.name} what={`site ${site.name}`} />
            </li>
          ))}
        </ul>
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
      <CountyCards rows={rows} selected={selected} onSelect={select} onDrill={drillIn} />
    </div>
  );
}

function PartnerView() {
  const [companies, search, selected, counties, county] = useUnit([
    $visiblePartners,
    $partnerSearch,
    $selectedPartner,
    $partnerCountyRows,
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
      {companies.length === 0 ? <p className={styles.empty}>No market partners.</p> : null}
      <ul className={styles.cards} aria-label="Market partners">
        {companies.map((c) => (
          <li key={c.key}>
            <button type="button" className={styles.countyCard} aria-pressed={c.key === selected} onClick={() => pick(c.key)}>
              <span className={styles.countyName}>{c.company}</span>
              <span className={styles.counts}>
                <span>
                  <b>{formatNumber(c.deviceCount)}</b> {pluralWord(c.deviceCount, 'device')}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {company ? (
        <section aria-label={`Counties of ${company.company}`} className={styles.partnerCounties}>
          <h3 className={styles.sectionTitle}>Counties of {company.company}</h3>
          <CountyCards rows={counties} selected={county} onSelect={selectCounty} />
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
