import { plural } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect, useRef } from 'react';
import { $selectedSerial } from '../../../entities/device';
import { ArrowLeftIcon, SearchIcon, Spinner, VirtualList } from '../../../shared/ui';
import { filterTitle } from '../lib/dashboard-lib';
import {
  $brandFilter,
  $brandOptions,
  $countyFilter,
  $countyOptions,
  $filteredDevices,
  $filterStatus,
  $filterTotal,
  $filterView,
  $partnerCompanies,
  $partnerFilter,
  $searchText,
  brandFilterChanged,
  countyFilterChanged,
  deviceCardClicked,
  filterPages,
  filterViewClosed,
  partnerFilterChanged,
  searchChanged,
} from '../model';
import { DEVICE_CARD_HEIGHT, DeviceCard } from './device-card';
import { PartnerSelect } from './partner-select';
import styles from './dashboard-panel.module.css';

/** The filter list view: '<filter> Devices' with search, Brand, County and Market Partner filters. */
export function FilterList() {
  const [view, devices, search, brand, county, partners, brands, counties, companies, selected] = useUnit([
    $filterView,
    $filteredDevices,
    $searchText,
    $brandFilter,
    $countyFilter,
    $partnerFilter,
    $brandOptions,
    $countyOptions,
    $partnerCompanies,
    $selectedSerial,
  ]);
  const [close, setSearch, setBrand, setCounty, setPartners, open] = useUnit([
    filterViewClosed,
    searchChanged,
    brandFilterChanged,
    countyFilterChanged,
    partnerFilterChanged,
    deviceCardClicked,
  ]);
  // Pages of the server's answer: the count is the server's total, the rows those read so far.
  const [listStatus, total, hasMore, loadingMore, more] = useUnit([
    $filterStatus,
    $filterTotal,
    filterPages.$hasMore,
    filterPages.$loadingMore,
    filterPages.moreRequested,
  ]);
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyboard users land on the new view's title, not on a button that no longer exists.
  useEffect(() => heading.current?.focus(), [view]);
  if (!view) return null;
  return (
    <section className={styles.filterList} aria-labelledby="filter-title" data-testid="filter-list">
      <div className={styles.listHeader}>
        <button type="button" className={styles.iconButton} onClick={() => close()} aria-label="Back to the dashboard">
          <ArrowLeftIcon size={18} />
        </button>
        <h3 id="filter-title" className={styles.listTitle} ref={heading} tabIndex={-1}>
          {filterTitle(view)}
        </h3>
        {listStatus === 'ready' && total !== null ? (
          <span className={styles.listCount} role="status" aria-live="polite" data-testid="filter-count" data-count={total}>
            {plural(total, 'device')}
          </span>
        ) : (
          <span className={styles.listCount} role="status" aria-live="polite">
            {listStatus === 'failed' ? (
              'The devices could not be loaded.'
            ) : (
              <>
                <Spinner size={14} /> Loading devices…
              </>
            )}
          </span>
        )}
      </div>
      <div className={styles.filters}>
        <label className={[styles.field, styles.searchField].join(' ')}>
          <span className="visually-hidden">Name or Serial</span>
          <SearchIcon size={16} className={styles.searchIcon} />
          <input
            className={styles.input}
            type="search"
            placeholder="Name or Serial"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            autoComplete="off"
          />
        </label>
        <label className={styles.field}>
          <span className={styles.fieldLabel}>Brand</span>
          <select
            className={styles.select}
            value={brand ?? ''}
            onChange={(e) => setBrand(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">All</option>
            {brands.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          <span className={styles.fieldLabel}>County</span>
          <select
            className={styles.select}
            value={county ?? ''}
            onChange={(e) => setCounty(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">All</option>
            {counties.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <PartnerSelect companies={companies} selected={partners} onChange={setPartners} />
      </div>
      {devices.length === 0 ? (
        listStatus === 'ready' ? (
          <p className={styles.empty}>No devices match.</p>
        ) : null
      ) : (
        <VirtualList
          className={styles.deviceList}
          label={filterTitle(view)}
          items={devices}
          total={total ?? undefined}
          onEndReached={hasMore ? more : undefined}
          loadingMore={loadingMore}
          rowHeight={DEVICE_CARD_HEIGHT}
          itemKey={(d) => d.serial}
          renderItem={(d) => <DeviceCard device={d} showDual={view === 'Total'} selected={d.serial === selected} onOpen={open} />}
        />
      )}
    </section>
  );
}
