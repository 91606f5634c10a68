import { useUnit } from 'effector-react';
import { $brandOptions, brandFilterChanged, filterViewOpened } from '../../dashboard-panel/model';
import styles from '../../dashboard-panel/ui/dashboard-panel.module.css';

/**
 * The BRAND sub-tab of the dashboard's DEVICE LIST (spec section 2): for now the brands on the caller's
 * devices with their counts; a brand opens the Total list filtered by it. The brands-and-batches work
 * replaces it with the 'Brand List' grid and its dialogs.
 */
export function BrandListView() {
  const [brands, open, setBrand] = useUnit([$brandOptions, filterViewOpened, brandFilterChanged]);
  return (
    <div className={styles.subView}>
      <h3 className={styles.sectionTitle}>Brand List</h3>
      {brands.length === 0 ? <p className={styles.empty}>No brands on your devices.</p> : null}
      <ul className={styles.cards} aria-label="Brand List">
        {brands.map((b) => (
          <li key={b.id}>
            <button
              type="button"
              className={styles.countyCard}
              onClick={() => {
                open('Total');
                setBrand(b.id);
              }}
            >
              <span className={styles.countyName}>{b.name}</span>
              <span className={styles.counts}>
                <span>
                  <b>{b.deviceCount}</b> {b.deviceCount === 1 ? 'device' : 'devices'}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

