import { formatNumber, plural } from '@fleet/shared';
import type { BrandAnswer } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { BrandDeleteDialogs } from '../../../features/brand-delete';
import { brandAddOpened, brandDetailOpened, BrandFormDialog } from '../../../features/brand-form';
import { TransferDevicesDialog, transferOpened } from '../../../features/transfer-devices';
import { LabelsActions } from '../../../features/device-labels';
import { panelKit, PauseIcon, PlusIcon, SearchIcon, Spinner } from '../../../shared/ui';
import { brandInitials } from '../lib/brand-list-lib';
import {
  $brandListStatus,
  $brandSearch,
  $canDelete,
  $canManageBrandList,
  $editMode,
  $selectedBrand,
  $selectedBrandCounties,
  $selectedBrandCountiesStatus,
  $selectedBrandId,
  $visibleBrands,
  brandListClosed,
  brandListOpened,
  brandSearchChanged,
  brandTileClicked,
  deleteClicked,
  editModeToggled,
} from '../model';
import styles from './brand-list.module.css';

/** The BRAND sub-tab of the dashboard's DEVICE LIST (spec section 2). */
export function BrandListView() {
  const [brands, status, search, selectedId, editMode, canDelete, canManage] = useUnit([
    $visibleBrands,
    $brandListStatus,
    $brandSearch,
    $selectedBrandId,
    $editMode,
    $canDelete,
    $canManageBrandList,
  ]);
  const [opened, closed, setSearch, clickTile, toggleEdit, remove, add, detail] = useUnit([
    brandListOpened,
    brandListClosed,
    brandSearchChanged,
    brandTileClicked,
    editModeToggled,
    deleteClicked,
    brandAddOpened,
    brandDetailOpened,
  ]);
  useEffect(() => {
    opened();
    return () => closed();
  }, [opened, closed]);

  return (
    <div className={panelKit.subView} data-testid="brand-list">
      <h3 className={panelKit.sectionTitle} id="brand-list-title">
        Brand List
      </h3>
      <label className={[panelKit.field, panelKit.searchField].join(' ')}>
        <span className="visually-hidden">Search brands by name</span>
        <SearchIcon size={16} className={panelKit.searchIcon} />
        <input
          className={panelKit.input}
          type="search"
          placeholder="Name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          autoComplete="off"
        />
      </label>
      {canManage ? (
        <div className={styles.buttons} role="group" aria-label="Brand actions">
          <button type="button" className={styles.tool} aria-pressed={editMode} onClick={() => toggleEdit()}>
            {editMode ? 'Save' : 'Edit'}
          </button>
          <button
            type="button"
            className={[styles.tool, styles.danger].join(' ')}
            disabled={!canDelete}
            onClick={() => remove()}
            title={canDelete ? 'Delete the selected brand' : 'Select a brand in edit mode to delete it'}
          >
            Delete
          </button>
          <button
            type="button"
            className={styles.tool}
            aria-disabled="true"
            title="Not available"
            onClick={(e) => e.preventDefault()}
          >
            <PauseIcon size={14} aria-hidden="true" /> Pause
          </button>
          <button
            type="button"
            className={styles.tool}
            disabled={selectedId === null}
            onClick={() => selectedId !== null && detail(selectedId)}
          >
            Detail
          </button>
        </div>
      ) : null}
      {editMode ? (
        <p className={panelKit.hint}>Edit mode: select a brand, then Delete or Detail. Save leaves edit mode.</p>
      ) : null}
      {status === 'loading' && brands.length === 0 ? (
        <p className={panelKit.empty} role="status">
          <Spinner size={16} /> Loading brands…
        </p>
      ) : status === 'failed' && brands.length === 0 ? (
        <p className={panelKit.error} role="alert">
          The brands could not be loaded.
        </p>
      ) : null}
      <ul className={styles.grid} aria-labelledby="brand-list-title" data-edit={editMode || undefined}>
        {canManage ? (
          <li>
            <button
              type="button"
              className={[styles.tile, styles.addTile].join(' ')}
              onClick={() => add()}
              aria-label="Add brand"
              title="Add a brand"
            >
              <span className={styles.logo}>
                <PlusIcon size={24} />
              </span>
              <span className={styles.name} aria-hidden="true">
                Add brand
              </span>
            </button>
          </li>
        ) : null}
        {brands.map((b) => (
          <li key={b.id}>
            <button
              type="button"
              className={styles.tile}
              aria-pressed={b.id === selectedId}
              onClick={() => clickTile(b.id)}
              title={b.name}
              data-brand={b.id}
            >
              <BrandLogo brand={b} />
              <span className={styles.name}>{b.name}</span>
            </button>
          </li>
        ))}
      </ul>
      {status === 'ready' && brands.length === 0 ? (
        <p className={panelKit.empty}>{search ? 'No brand matches.' : 'No brands yet.'}</p>
      ) : null}
      <SelectedBrand />
      <BrandFormDialog />
      <BrandDeleteDialogs />
      <TransferDevicesDialog />
    </div>
  );
}

function BrandLogo({ brand, large = false }: { brand: BrandAnswer; large?: boolean }) {
  const url = brand.image_url ?? brand.image;
  return (
    <span className={[styles.logo, large ? styles.logoLarge : ''].join(' ')}>
      {url ? <img src={url} alt="" loading="lazy" /> : <span aria-hidden="true">{brandInitials(brand.name)}</span>}
    </span>
  );
}

function SelectedBrand() {
  const [brand, counties, countiesStatus, canManage] = useUnit([
    $selectedBrand,
    $selectedBrandCounties,
    $selectedBrandCountiesStatus,
    $canManageBrandList,
  ]);
  const [openTransfer] = useUnit([transferOpened]);
  if (!brand) return null;
  return (
    <section className={styles.selected} aria-label={`Brand ${brand.name}`} data-testid="selected-brand">
      <div className={styles.selectedHeader}>
        <BrandLogo brand={brand} large />
        <div className={styles.selectedText}>
          <h3 className={styles.selectedName}>{brand.name}</h3>
          <p className={panelKit.hint}>
            {plural(brand.device_count, 'device')}
            {brand.clients.length ? ` · ${brand.clients.map((c) => c.company || c.email).join(', ')}` : ''}
          </p>
        </div>
      </div>
      {canManage ? (
        <button type="button" className={panelKit.addButton} onClick={() => openTransfer(brand.id)}>
          <PlusIcon size={18} aria-hidden="true" /> Add devices to {brand.name}
        </button>
      ) : null}
      {brand.device_count > 0 ? (
        <LabelsActions query={{ brand: brand.id }} name={brand.name} what={`brand ${brand.name}`} />
      ) : null}
      {counties.length === 0 ? (
        countiesStatus === 'loading' ? (
          <p className={panelKit.empty} role="status">
            <Spinner size={16} /> Loading counties…
          </p>
        ) : countiesStatus === 'failed' ? (
          <p className={panelKit.error} role="alert">
            The counties could not be loaded.
          </p>
        ) : (
          <p className={panelKit.empty}>No devices of this brand yet.</p>
        )
      ) : (
        <ul className={panelKit.cards} aria-label={`Counties of ${brand.name}`}>
          {counties.map((c) => (
            <li key={c.id} className={panelKit.countyCard} data-county={c.id}>
              <span className={panelKit.countyName}>{c.name}</span>
              <span className={panelKit.counts}>
                <span>
                  <b>{formatNumber(c.total)}</b> total
                </span>
                <span className={panelKit.onlineText}>
                  <b>{c.online}</b> online
                </span>
                <span className={panelKit.offlineText}>
                  <b>{c.offline}</b> offline
                </span>
                <span className={c.warning > 0 ? panelKit.warningText : undefined}>
                  <b>{c.warning}</b> warning
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
