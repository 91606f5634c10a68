import { useUnit } from 'effector-react';
import type { ReactNode } from 'react';
import {
  $countyOverview,
  $countyOverviewFailed,
  $overview,
  $overviewFailed,
  countyOverviewRequested,
  overviewRequested,
  type Overview,
} from '../../../entities/overview';
import { $accessLevel } from '../../../entities/session';
import { formatNumber } from '../../../shared/lib';
import { AlertIcon, BatteryIcon, ExternalIcon, LinkButton, PauseIcon, PinIcon, TruckIcon } from '../../../shared/ui';
import { $selectedCounty, filterViewOpened, tabSelected } from '../model';
import type { FilterView } from '../lib/dashboard-lib';
import styles from './dashboard-panel.module.css';

const count = (o: Overview, field: string) => formatNumber(Number(o[field] ?? 0));

type TileProps = {
  label: string;
  value: string;
  tone?: string;
  icon?: ReactNode;
  onClick: () => void;
  hint?: string;
  caption?: string;
  testId?: string;
};

function Tile({ label, value, tone, icon, onClick, hint, caption, testId }: TileProps) {
  return (
    <button
      type="button"
      className={[styles.tile, tone ? styles[tone] : ''].join(' ')}
      onClick={onClick}
      title={hint}
      data-testid={testId}
    >
      <span className={styles.tileLabel}>
        {icon}
        {label}
      </span>
      <span className={styles.tileValue}>{value}</span>
      {caption ? <span className={styles.tileCaption}>{caption}</span> : null}
    </button>
  );
}

function Skeleton() {
  return (
    <div className={styles.overview} aria-busy="true" aria-label="Loading the overview">
      <div className={styles.tiles}>
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className={[styles.tile, styles.skeleton].join(' ')} />
        ))}
      </div>
      <div className={[styles.usage, styles.skeleton, styles.skeletonUsage].join(' ')} />
    </div>
  );
}

/**
 * OVERVIEW: the status tiles (each opens its filter list), the usage card and the Location, Status
 * Report and Custom Report tiles, for the whole scope or the selected county. Counts arrive by push.
 */
export function OverviewTab() {
  const [overall, countyOverview, county, open, selectTab] = useUnit([
    $overview,
    $countyOverview,
    $selectedCounty,
    filterViewOpened,
    tabSelected,
  ]);
  // Clients see no crews or plans (the server answers 403): the tile is for distributors and partners.
  const canPlan = useUnit($accessLevel) !== 'client';
  const [overallFailed, countyFailed, retryOverall, retryCounty] = useUnit([
    $overviewFailed,
    $countyOverviewFailed,
    overviewRequested,
    countyOverviewRequested,
  ]);
  const o = county !== null ? countyOverview : overall;
  const failed = county !== null ? countyFailed : overallFailed;
  if (!o && failed) {
    return (
      <p className={styles.error} role="alert">
        The overview could not be loaded.
        <LinkButton onClick={() => (county !== null ? retryCounty(county) : retryOverall())}>Try again</LinkButton>
      </p>
    );
  }
  if (!o) return <Skeleton />;
  const view = (v: FilterView) => () => open(v);
  return (
    <div className={styles.overview} data-testid="overview">
      <div className={styles.tiles}>
        <div className={[styles.tile, styles.totalTile].join(' ')}>
          <button type="button" className={styles.tileMain} onClick={view('Total')} data-testid="tile-total">
            <span className={styles.tileLabel}>
              <PinIcon size={16} />
              Total Device
            </span>
            <span className={styles.tileValue}>{count(o, 'total_devices')}</span>
          </button>
          <span className={styles.tileSplit}>
            <button
              type="button"
              className={[styles.split, styles.online].join(' ')}
              onClick={view('Online')}
              data-testid="tile-online"
            >
              Online {count(o, 'online_devices')}
            </button>
            <button
              type="button"
              className={[styles.split, styles.offline].join(' ')}
              onClick={view('Offline')}
              data-testid="tile-offline"
            >
              Offline {count(o, 'offline_devices')}
            </button>
          </span>
        </div>
        <Tile
          label="Battery"
          value={count(o, 'low_battery_devices')}
          tone="warning"
          icon={<BatteryIcon size={16} />}
          onClick={view('LowBattery')}
          caption="below 50 %"
          testId="tile-battery"
        />
        <Tile
          label="Synced"
          value={count(o, 'totalIsRegistration')}
          tone="registering"
          onClick={view('Synced')}
          caption="in registration"
          testId="tile-synced"
        />
        <Tile
          label="Paused"
          value={count(o, 'pause_devices')}
          tone="paused"
          icon={<PauseIcon size={16} />}
          onClick={view('Pause')}
          testId="tile-paused"
        />
        <Tile
          label="Warning"
          value={count(o, 'warning_devices')}
          tone="warningStrong"
          icon={<AlertIcon size={16} />}
          onClick={view('Warning')}
          testId="tile-warning"
        />
        <div className={[styles.tile, styles.maintenanceTile].join(' ')}>
          <a className={styles.tileMain} href="/maintenance-result" target="_blank" rel="noopener" data-testid="tile-maintenance">
            <span className={styles.tileLabel}>
              Maintenance
              <ExternalIcon size={14} />
              <span className="visually-hidden">(opens the maintenance results in a new tab)</span>
            </span>
            <span className={styles.tileValue}>{count(o, 'maintenance_devices')}</span>
          </a>
          <span className={styles.tileSplit}>
            <button type="button" className={styles.split} onClick={view('Maintenance')} data-testid="tile-maintenance-list">
              Devices in maintenance
            </button>
          </span>
        </div>
      </div>

      <section className={styles.usage} aria-labelledby="usage-title">
        <h3 id="usage-title" className={styles.sectionTitle}>
          Usage
        </h3>
        <dl className={styles.usageGrid}>
          <div>
            <dt>Total Sunscreen Used</dt>
            <dd>{formatNumber(Number(o.totalSunscreenUsed ?? 0), 2)} fl.oz.</dd>
          </div>
          <div>
            <dt>Total Sanitiser Used</dt>
            <dd>{formatNumber(Number(o.totalSanitizerUsed ?? 0), 2)} fl.oz.</dd>
          </div>
          <div>
            <dt>Sunscreen Dispensed</dt>
            <dd>{count(o, 'totalSunscreenDispensingCount')}</dd>
          </div>
          <div>
            <dt>Sanitiser Dispensed</dt>
            <dd>{count(o, 'totalSanitizerDispensingCount')}</dd>
          </div>
          <div>
            <dt>Sunscreen Batches</dt>
            <dd>{count(o, 'totalSunscreenBatchs')}</dd>
          </div>
          <div>
            <dt>Sanitiser Batches</dt>
            <dd>{count(o, 'totalSanitizerBatchs')}</dd>
          </div>
        </dl>
      </section>

      <div className={styles.links}>
        <button type="button" className={styles.linkTile} onClick={() => selectTab('deviceList')}>
          <PinIcon size={18} />
          Location
        </button>
        <a className={styles.linkTile} href="/status" target="_blank" rel="noopener">
          <ExternalIcon size={18} />
          Status Report
          <span className="visually-hidden">(opens in a new tab)</span>
        </a>
        <button type="button" className={styles.linkTile} onClick={view('ReportList')}>
          Custom Report
        </button>
        {canPlan ? (
          <button type="button" className={styles.linkTile} onClick={view('ServiceDay')} data-testid="service-day-tile">
            <TruckIcon size={18} />
            Service Day
          </button>
        ) : null}
      </div>
    </div>
  );
}
