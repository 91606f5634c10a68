import { useUnit } from 'effector-react';
import { $countyNames } from '../../../entities/county';
import { Button, Dialog, ResultPopup, SelectField } from '../../../shared/ui';
import { formatNumber, isPicked } from '@fleet/shared';
import {
  $picks,
  $selectedCount,
  $shownDevice,
  $transferBrand,
  $transferFilters,
  $transferOptions,
  $transferPending,
  $transferRows,
  $transferStatus,
  deviceShown,
  deviceToggled,
  moreRowsRequested,
  selectAllClicked,
  transferClicked,
  transferClosed,
  transferFilterChanged,
  transferResult,
  TRANSFER_TEXT,
} from '../model';
import styles from './transfer-devices.module.css';

/** 'Add Device To {brand}' and its result popup. Mount once beside the Brand List. */
export function TransferDevicesDialog() {
  const [brand, rows, status, filters, options, picks, count, shown, pending, names, result] = useUnit([
    $transferBrand,
    $transferRows,
    $transferStatus,
    $transferFilters,
    $transferOptions,
    $picks,
    $selectedCount,
    $shownDevice,
    $transferPending,
    $countyNames,
    transferResult.$result,
  ]);
  const [close, filter, toggle, show, all, transfer, closeResult, more] = useUnit([
    transferClosed,
    transferFilterChanged,
    deviceToggled,
    deviceShown,
    selectAllClicked,
    transferClicked,
    transferResult.closed,
    moreRowsRequested,
  ]);
  const district = (id: number | null) => (id === null ? '—' : (names.get(id) ?? `County ${id}`));

  return (
    <>
      <Dialog
        open={brand !== null}
        onClose={close}
        title={`Add Device To ${brand?.name ?? ''}`}
        width={920}
        actions={
          <>
            <Button variant="secondary" onClick={() => close()}>
              Cancel
            </Button>
            <Button variant="secondary" onClick={() => all()}>
              Select All
            </Button>
            <Button
              variant="secondary"
              aria-disabled="true"
              title="Not available"
              className={styles.inert}
              onClick={(e) => e.preventDefault()}
            >
              Remove Device
            </Button>
            <Button onClick={() => transfer()} loading={pending} disabled={!count}>
              Transfer
            </Button>
          </>
        }
      >
        <div className={styles.filters}>
          <SelectField
            label="District"
            value={filters.district ?? ''}
            onChange={(e) => filter({ district: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">All</option>
            {options.districts.map((id) => (
              <option key={id} value={id}>
                {district(id)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Address"
            value={filters.address ?? ''}
            onChange={(e) => filter({ address: e.target.value || null })}
          >
            <option value="">All</option>
            {options.addresses.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Brand"
            value={filters.brand === null ? '' : String(filters.brand)}
            onChange={(e) =>
              filter({ brand: e.target.value === '' ? null : e.target.value === 'none' ? 'none' : Number(e.target.value) })
            }
          >
            <option value="">All</option>
            <option value="none">No brand</option>
            {options.brands.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </SelectField>
        </div>
        <div
          className={styles.tableWrap}
          tabIndex={0}
          role="region"
          aria-label="Devices that can join the brand"
          // The rows are read a page at a time: the next page once the last screenful is in view.
          onScroll={(e) => {
            const el = e.currentTarget;
            if (el.scrollTop + 2 * el.clientHeight >= el.scrollHeight) more();
          }}
        >
          <table className={styles.table} data-testid="transfer-table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Selected</span>
                </th>
                <th scope="col">Site/Event Name</th>
                <th scope="col">Address</th>
                <th scope="col">District</th>
                <th scope="col">Brand</th>
                <th scope="col">S/N</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.serial} data-serial={d.serial} aria-selected={isPicked(picks, d)} onClick={() => show(d.serial)}>
                  <td>
                    <input
                      type="checkbox"
                      checked={isPicked(picks, d)}
                      onChange={() => toggle(d.serial)}
                      onClick={(e) => e.stopPropagation()}
                      aria-label={`Select ${d.label || d.serial} (S/N ${d.serial})`}
                    />
                  </td>
                  <td>{d.label || 'NoName'}</td>
                  <td>{d.address}</td>
                  <td>{district(d.location_id)}</td>
                  <td>{d.brand_name ?? 'None'}</td>
                  <td className={styles.serial}>{d.serial}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 && status === 'ready' ? <p className={styles.empty}>No device matches.</p> : null}
          {rows.length === 0 && status === 'loading' ? <p className={styles.empty}>Loading devices…</p> : null}
          {status === 'failed' ? <p className={styles.empty}>The devices could not be read.</p> : null}
        </div>
        <p className={styles.selectedCount} role="status">
          {/* After a Select All the count is the server's (every device the filters match, issue 46). */}
          {count === null ? '… selected' : count === 0 ? TRANSFER_TEXT.needOne : `${formatNumber(count)} selected`}
        </p>
        {shown ? (
          <section className={styles.detail} aria-label="Device detail" data-testid="transfer-detail">
            <h3 className={styles.detailTitle}>{shown.label || 'NoName'}</h3>
            <dl>
              <div>
                <dt>S/N</dt>
                <dd>{shown.serial}</dd>
              </div>
              <div>
                <dt>Brand</dt>
                <dd>{shown.brand_name ?? 'None'}</dd>
              </div>
              <div>
                <dt>District</dt>
                <dd>{district(shown.location_id)}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>
                  {shown.is_online ? 'Online' : 'Offline'}
                  {shown.is_pause ? ', paused' : ''}
                </dd>
              </div>
              <div className={styles.wide}>
                <dt>Address</dt>
                <dd>{shown.address}</dd>
              </div>
            </dl>
          </section>
        ) : (
          <p className={styles.hint}>Select a row to see its device; tick devices, then Transfer.</p>
        )}
      </Dialog>
      <ResultPopup result={result} onClose={closeResult} testId="transfer-result" />
    </>
  );
}
