import { useUnit } from 'effector-react';
import { useEffect, useRef } from 'react';
import { dayCountText } from '../../../entities/report';
import { EmailSetupDialog, emailSetupOpened } from '../../../features/email-setup';
import { DownloadDialog } from '../../../features/report-download';
import { EmailReportDialog } from '../../../features/report-email';
import {
  $counts,
  $currentName,
  $notice,
  $selectedTag,
  $unsaved,
  AdvanceFilterDialog,
  advanceFilterOpened,
  tagDialogOpened,
  TagNameDialog,
  TagsList,
} from '../../../features/report-tags';
import { formatNumber } from '../../../shared/lib';
import { ArrowLeftIcon, Button } from '../../../shared/ui';
import {
  $actionBlocked,
  $dayCount,
  $endDate,
  $hasDevices,
  $rangeProblem,
  $startDate,
  $zoneLabel,
  downloadClicked,
  endDateChanged,
  reportListMounted,
  sendEmailClicked,
  startDateChanged,
} from '../model';
import styles from './report-list.module.css';

/**
 * The Report List view of the main dashboard (spec section 2 'Report List view'), opened from the Custom
 * Report tile (the ReportList filter view): the range and its day count, the device list card (Tag,
 * Edit, counts), the saved tags, Download, Send Email and Email Setup. `onBack` returns to the dashboard.
 */
export function ReportListView({ onBack }: { onBack: () => void }) {
  const [start, end, days, problem, blocked, zone, hasDevices, counts, name, tag, unsaved, notice] = useUnit([
    $startDate,
    $endDate,
    $dayCount,
    $rangeProblem,
    $actionBlocked,
    $zoneLabel,
    $hasDevices,
    $counts,
    $currentName,
    $selectedTag,
    $unsaved,
    $notice,
  ]);
  const [mounted, setStart, setEnd, download, sendEmail, openSetup, openTag, openFilter] = useUnit([
    reportListMounted,
    startDateChanged,
    endDateChanged,
    downloadClicked,
    sendEmailClicked,
    emailSetupOpened,
    tagDialogOpened,
    advanceFilterOpened,
  ]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    mounted();
    // Keyboard users land on the view's title, not on the tile that opened it.
    heading.current?.focus();
  }, [mounted]);

  const dimmed = blocked !== null;
  return (
    <section className={styles.view} aria-labelledby="report-list-title" data-testid="report-list">
      <div className={styles.header}>
        <button type="button" className={styles.iconButton} onClick={onBack} aria-label="Back to the dashboard">
          <ArrowLeftIcon size={18} />
        </button>
        <h3 id="report-list-title" className={styles.title} ref={heading} tabIndex={-1}>
          Report List
        </h3>
      </div>

      <div className={styles.range}>
        <label className={styles.field}>
          <span className={styles.label}>Start Date</span>
          <input
            className={styles.date}
            type="date"
            value={start ?? ''}
            max={end ?? undefined}
            onChange={(e) => setStart(e.target.value)}
          />
        </label>
        <label className={styles.field}>
          <span className={styles.label}>End Date</span>
          <input className={styles.date} type="date" value={end ?? ''} onChange={(e) => setEnd(e.target.value)} />
        </label>
        <div className={styles.format} data-testid="day-count" data-days={days}>
          <span className={styles.label}>PDF Format</span>
          <strong>{dayCountText(days)}</strong>
        </div>
      </div>
      <p className={styles.zone} data-testid="report-zone">
        Days in your browser&apos;s time zone: {zone}
      </p>
      {problem ? (
        <p className={styles.hint} data-testid="range-problem">
          {problem}
        </p>
      ) : null}

      <div className={styles.card} data-testid="tag-card">
        <div className={styles.cardHeader}>
          <span className={styles.cardName} title={name}>
            {name}
            {unsaved && tag ? <span className={styles.badge}>edited</span> : null}
          </span>
          <Button variant="secondary" className={styles.small} onClick={() => openTag()}>
            Tag
          </Button>
          <Button variant="secondary" className={styles.small} onClick={() => openFilter()}>
            Edit
          </Button>
        </div>
        {hasDevices ? (
          <dl className={styles.counts} aria-busy={counts === null}>
            <div>
              <dt>Devices</dt>
              <dd data-testid="count-devices">{counts ? formatNumber(counts.devices) : '…'}</dd>
            </div>
            <div>
              <dt>Brands</dt>
              <dd data-testid="count-brands">{counts ? formatNumber(counts.brands) : '…'}</dd>
            </div>
            <div>
              <dt>Counties</dt>
              <dd data-testid="count-counties">{counts ? formatNumber(counts.counties) : '…'}</dd>
            </div>
          </dl>
        ) : (
          <p className={styles.noReport}>No Report Added</p>
        )}
      </div>

      <div className={styles.tagsSection}>
        <h4 className={styles.sectionTitle}>Tags</h4>
        <TagsList />
      </div>
      <p
        className={[styles.notice, notice?.tone === 'danger' ? styles.noticeDanger : ''].join(' ')}
        role="status"
        aria-live="polite"
        data-testid="tag-notice"
      >
        {notice?.text ?? ''}
      </p>

      <div className={styles.actions}>
        <Button
          className={dimmed ? styles.dimmed : ''}
          disabled={dimmed}
          aria-describedby={dimmed ? 'report-actions-blocked' : undefined}
          onClick={() => download()}
        >
          Download
        </Button>
        <Button
          className={dimmed ? styles.dimmed : ''}
          disabled={dimmed}
          aria-describedby={dimmed ? 'report-actions-blocked' : undefined}
          onClick={() => sendEmail()}
        >
          Send Email
        </Button>
        <Button variant="secondary" onClick={() => openSetup()}>
          Email Setup
        </Button>
      </div>

      {blocked ? (
        <p id="report-actions-blocked" className={styles.blocked} data-testid="report-actions-blocked">
          Download and Send Email: {blocked}
        </p>
      ) : null}

      <AdvanceFilterDialog />
      <TagNameDialog />
      <DownloadDialog />
      <EmailReportDialog />
      <EmailSetupDialog />
    </section>
  );
}
