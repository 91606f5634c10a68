import { useUnit } from 'effector-react';
import { memo, useEffect, useState } from 'react';
import { formatNumber, pageZone } from '../../../shared/lib';
import { Button, PageFrame, pageText } from '../../../shared/ui';
import { siteTime, zoneNote, type CountyReport, type StatusCounts, type StatusRow } from '../lib/status-report';
import {
  $countyFailed,
  $extrasFailed,
  $isLive,
  $report,
  $status,
  $statusTotal,
  countyToggled,
  retryClicked,
  statusPageLeft,
  statusPageMounted,
} from '../model';
import styles from './status-page.module.css';

const COUNT_LABELS: readonly [keyof StatusCounts, string][] = [
  ['total', 'Devices'],
  ['online', 'Online'],
  ['registering', 'Registering'],
  ['offline', 'Offline'],
  ['warning', 'Warning'],
  ['paused', 'Paused'],
  ['maintenance', 'Maintenance'],
  ['lowBattery', 'Low battery'],
];

/** /status: the status report, opened in a new tab from the Status Report tile; printable. */
export function StatusPage() {
  const [report, status, live, extrasFailed, total, mounted, left, retry] = useUnit([
    $report,
    $status,
    $isLive,
    $extrasFailed,
    $statusTotal,
    statusPageMounted,
    statusPageLeft,
    retryClicked,
  ]);
  const byCounty = report.counties.some((county) => county.listing !== undefined);
  const [generated] = useState(() => new Date());
  useEffect(() => {
    mounted();
    document.title = 'Status report';
    return left;
  }, [mounted, left]);

  return (
    <PageFrame
      title="Status report"
      lead={statusLead(generated, report, status === 'ready')}
      actions={
        <>
          <span
            className={[styles.live, live ? styles.liveOn : ''].join(' ')}
            role="status"
            data-testid="status-live"
            data-live={live}
          >
            {live ? 'Live' : 'Connecting…'}
          </span>
          <Button onClick={() => window.print()} className={styles.noPrint}>
            Print
          </Button>
          <a className={[styles.back, styles.noPrint].join(' ')} href="/">
            Back to the map
          </a>
        </>
      }
    >
      {status === 'failed' ? (
        <p className={styles.error} role="alert">
          The devices could not be loaded. Reload the page to try again.
        </p>
      ) : null}
      {extrasFailed ? (
        <p className={styles.error} role="alert">
          Site time zones or batch states could not be loaded.{' '}
          <Button variant="secondary" onClick={() => retry()} className={styles.noPrint}>
            Try again
          </Button>
        </p>
      ) : null}
      {status === 'loading' || status === 'idle' ? (
        <p className={pageText.meta} role="status">
          Loading devices…
        </p>
      ) : null}

      <main>
        {byCounty ? (
          <p className={pageText.meta} data-testid="status-by-county">
            {formatNumber(total ?? report.counts.total)} devices are too many to list at once. Show a county's devices to list
            them; they stay live. The counts of the other counties are as of when this page was opened.
          </p>
        ) : null}
        <section aria-labelledby="status-summary" className={styles.summary}>
          <h2 id="status-summary" className={styles.sectionTitle}>
            All counties
          </h2>
          <Counts counts={report.counts} testId="status-total" />
        </section>
        {report.counties.map((county) => (
          <County key={county.id ?? 'none'} county={county} />
        ))}
        {status === 'ready' && report.counties.length === 0 ? <p className={pageText.meta}>No devices in your fleet.</p> : null}
      </main>
    </PageFrame>
  );
}

/**
 * When the page was opened, in the one zone of the page: the sites' zone when every listed device's site
 * shares it, so the whole report reads in one named zone; UTC (named) when the sites' zones differ, each
 * check-in then naming its own. Never the viewer's zone (a second zone on the page, and a printed report
 * read elsewhere would not say which).
 */
function statusLead(generated: Date, report: { counties: readonly CountyReport[] }, ready: boolean) {
  const rows = report.counties.flatMap((county) => county.rows);
  // Until the devices (and so their sites' zone) are in, no time rather than one in a zone that changes.
  if (rows.length === 0 && !ready) return null;
  const opened = siteTime(generated.toISOString(), pageZone(rows.map((row) => row.timeZone)));
  const note = zoneNote(rows);
  return (
    <span data-testid="status-opened">
      Opened {opened}.{note ? ` ${note}` : ''}
    </span>
  );
}

function Counts({ counts, testId }: { counts: StatusCounts; testId: string }) {
  return (
    <dl className={styles.counts} data-testid={testId}>
      {COUNT_LABELS.map(([key, label]) => (
        <div key={key} data-count={key} data-value={counts[key]}>
          <dt>{label}</dt>
          <dd>{formatNumber(counts[key])}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Rows drawn at once in a county of a fleet listed by county; more on request. */
const ROWS_AT_ONCE = 500;

function County({ county }: { county: CountyReport }) {
  const id = `county-${county.id ?? 'none'}`;
  const tableId = `${id}-devices`;
  const [failed, toggle] = useUnit([$countyFailed, countyToggled]);
  const [shown, setShown] = useState(ROWS_AT_ONCE);
  const listing = county.listing;
  return (
    <section
      className={styles.county}
      aria-labelledby={id}
      data-testid="status-county"
      data-county={county.name}
      data-listing={listing}
    >
      <h2 id={id} className={styles.countyTitle}>
        {county.name}
      </h2>
      <Counts counts={county.counts} testId="status-county-counts" />
      {listing !== undefined && county.id !== null ? (
        <p className={styles.noPrint}>
          <Button
            variant="secondary"
            aria-expanded={listing !== 'closed'}
            aria-controls={listing === 'open' ? tableId : undefined}
            onClick={() => {
              setShown(ROWS_AT_ONCE);
              toggle(county.id!);
            }}
          >
            {listing === 'closed' ? `Show the ${formatNumber(county.counts.total)} devices` : 'Hide the devices'}
          </Button>
        </p>
      ) : null}
      {listing !== undefined && county.id === null ? (
        <p className={pageText.meta}>Devices on sites of no county are listed in the dashboard's Device List.</p>
      ) : null}
      {listing === 'loading' ? (
        <p className={pageText.meta} role="status">
          Loading devices…
        </p>
      ) : null}
      {failed !== null && failed === county.id ? (
        <p className={styles.error} role="alert">
          The devices of {county.name} could not be loaded. Show them again to try again.
        </p>
      ) : null}
      {listing === undefined || listing === 'open' ? (
        <CountyTable county={county} tableId={tableId} shown={shown} more={() => setShown((n) => n + ROWS_AT_ONCE)} />
      ) : null}
    </section>
  );
}

function CountyTable({
  county,
  tableId,
  shown,
  more,
}: {
  county: CountyReport;
  tableId: string;
  shown: number;
  more: () => void;
}) {
  // Every row when the whole fleet is listed; a county of a fleet listed by county draws ROWS_AT_ONCE at a time.
  const rows = county.listing === undefined ? county.rows : county.rows.slice(0, shown);
  const left = county.rows.length - rows.length;
  return (
    <>
      {/* A phone is narrower than the seven columns (the page was 599 px wide at 390, issue 42): the table
          scrolls sideways in its own region, reachable by keyboard (focusable, named), and the page does not. */}
      <div className={styles.tableScroll} role="region" aria-label={`Devices in ${county.name}`} tabIndex={0} id={tableId}>
        <table className={styles.table}>
          <caption className="visually-hidden">Devices in {county.name}</caption>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Connection</th>
              <th scope="col">Warnings</th>
              <th scope="col">Battery</th>
              <th scope="col">Fluid remaining</th>
              <th scope="col">Batches</th>
              <th scope="col">Check-in (site time)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <Row key={row.serial} row={row} />
            ))}
          </tbody>
        </table>
      </div>
      {left > 0 ? (
        <p className={styles.noPrint}>
          <Button variant="secondary" onClick={more}>
            Show {formatNumber(Math.min(left, ROWS_AT_ONCE))} more of {formatNumber(left)}
          </Button>
        </p>
      ) : null}
    </>
  );
}

/** A row redraws only when its device changed (rows are reused otherwise). */
const Row = memo(function Row({ row }: { row: StatusRow }) {
  return (
    <tr data-serial={row.serial} data-connection={row.connection}>
      <th scope="row" className={styles.device}>
        <span className={styles.name}>{row.name}</span>
        <span className={styles.sub}>S/N {row.serial}</span>
        {row.site ? <span className={styles.sub}>{row.site}</span> : null}
      </th>
      <td>
        <span className={[styles.badge, styles[row.connection]].join(' ')}>{row.connectionText}</span>
        {row.paused ? <span className={[styles.badge, styles.paused].join(' ')}>Paused</span> : null}
        {row.maintenance ? <span className={[styles.badge, styles.paused].join(' ')}>Maintenance</span> : null}
      </td>
      <td data-testid="status-warnings">
        {row.warnings.length ? (
          <ul className={styles.list}>
            {row.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        ) : (
          <span className={styles.sub}>None</span>
        )}
      </td>
      <td className={row.lowBattery ? styles.bad : undefined} data-testid="status-battery">
        {row.battery == null ? '—' : `${Math.round(row.battery)} %`}
      </td>
      <td>
        {row.fluids.length ? (
          <ul className={styles.list}>
            {row.fluids.map((f) => (
              <li key={f.side} className={f.low || f.empty ? styles.bad : undefined}>
                {f.side} {f.type}: {f.tsp} tsp{f.empty ? ' (empty)' : f.low ? ' (low)' : ''}
              </li>
            ))}
          </ul>
        ) : (
          '—'
        )}
      </td>
      <td>
        {row.batches.length ? (
          <ul className={styles.list}>
            {row.batches.map((b) => (
              <li key={b.side}>
                {b.side} {b.number}: <span className={styles[`tone_${b.tone}`]}>{b.label}</span>
              </li>
            ))}
          </ul>
        ) : (
          <span className={styles.sub}>None</span>
        )}
      </td>
      <td data-testid="status-checkin">
        {row.checkIn ? (
          <>
            <span className={styles.sub}>{row.checkIn.label}</span>
            <span>{siteTime(row.checkIn.at, row.timeZone)}</span>
          </>
        ) : (
          '—'
        )}
      </td>
    </tr>
  );
});
