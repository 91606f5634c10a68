import { type FilterDateType, type FilterDeviceType, formatNumber, remainingTsp } from '@fleet/shared';
import dayjs from 'dayjs';
import { useUnit } from 'effector-react';
import { useMemo, useState } from 'react';
import { $now } from '../../../shared/lib';
import {
  Button,
  Card,
  CardHead,
  CardTitle,
  Chart,
  ConfirmDialog,
  LinkButton,
  SectionTitle,
  Segmented,
  SwitchButton,
} from '../../../shared/ui';
import { $optimistic, $runningAction, deviceActionFx, toggleShown } from '../controls.model';
import { dispensingChartOptions } from '../lib/chart-options';
import {
  AREAS,
  latestPage,
  pageCount,
  pageHours,
  pageOf,
  pendingIndicators,
  settingName,
  siteDateTime,
  siteToday,
  toggleConfirmation,
  updateAfterText,
  type Confirmation,
  type ToggleKind,
} from '../lib/panel-lib';
import { sectionSelected, type PanelDevice } from '../model';
import { $analyticsQuery, analyticsQueryChanged, analyticsReset, pumpLog, resolvedDate } from '../telemetry.model';
import { PendingChips } from './pending-chips';
import sectionStyles from './panel-section.module.css';
import styles from './dashboard-section.module.css';

const DATE_TYPES: FilterDateType[] = ['DAILY', 'WEEKLY', 'MONTHLY'];

/** Device Dashboard: dispensing analytics and the device control panel (spec section 2). */
export function DashboardSection({ device, operator }: { device: PanelDevice; operator: boolean }) {
  return (
    <div className={sectionStyles.sectionGrid}>
      <Analytics device={device} operator={operator} />
      <ControlPanel device={device} operator={operator} />
    </div>
  );
}

function Analytics({ device, operator }: { device: PanelDevice; operator: boolean }) {
  const [query, log, status, change, reset, act, running, now] = useUnit([
    $analyticsQuery,
    pumpLog.$data,
    pumpLog.$status,
    analyticsQueryChanged,
    analyticsReset,
    deviceActionFx,
    $runningAction,
    $now,
  ]);
  const acting = running?.kind === 'resetMl';
  // The site's calendar, not the browser's: the day shown, the latest day that can be picked.
  const today = siteToday(now, device.timezone_id);
  const date = resolvedDate(query, device.timezone_id, now);
  // A page the user chose holds until the query changes; until then the page with the latest data shows
  // (and follows it as pushes re-read the day).
  const [picked, setPicked] = useState<{ key: string; page: number } | null>(null);
  const queryKey = `${device.serial}|${query.pump}|${query.dateType}|${date}|${query.area}`;
  const [confirmReset, setConfirmReset] = useState(false);
  const pumps = [
    { pump: 1 as const, type: device.left_pump_type, side: 'Left' },
    { pump: 2 as const, type: device.right_pump_type, side: 'Right' },
  ];
  const rows = log?.dispensingDatas ?? [];
  const daily = query.dateType === 'DAILY';
  const pages = daily ? pageCount(rows.length) : 1;
  const page = !daily
    ? 0
    : picked?.key === queryKey
      ? Math.min(picked.page, pages - 1)
      : latestPage(rows, log?.remainDatas ?? [], now);
  const setPage = (p: number) => setPicked({ key: queryKey, page: p });
  const shown = daily ? pageOf(rows, page) : rows;
  const remain = daily ? pageOf(log?.remainDatas ?? [], page) : (log?.remainDatas ?? []);
  const volume = query.pump === 1 ? device.volume_remain : device.volume_remain2;
  const total = (log?.total_left_pump_dispensation ?? 0) + (log?.total_right_pump_dispensation ?? 0);

  const categories = useMemo(() => shown.map((r) => label(r.date, query.dateType)), [shown, query.dateType]);
  const placeholder = status === 'loading' && !log ? 'Loading...' : status === 'failed' ? 'No Data present in the graph!' : null;

  return (
    <Card aria-labelledby="analytics-title">
      <CardHead>
        <CardTitle id="analytics-title">Dispensing</CardTitle>
        <Segmented
          label="Pump"
          options={pumps.map((p) => ({ value: p.pump, label: `${p.side}: ${p.type === 'Unspecified' ? 'NONE' : p.type}` }))}
          value={query.pump}
          onChange={(pump) => change({ pump })}
        />
      </CardHead>
      <div className={sectionStyles.formRow}>
        <Segmented
          label="Period"
          options={DATE_TYPES.map((t) => ({ value: t, label: t }))}
          value={query.dateType}
          onChange={(dateType) => change({ dateType })}
        />
        <label className={sectionStyles.field}>
          <span>{query.dateType === 'DAILY' ? 'Day' : 'Until'}</span>
          <input
            type="date"
            value={date}
            max={today}
            onChange={(e) => e.target.value && change({ date: e.target.value === today ? '' : e.target.value })}
          />
        </label>
        <label className={sectionStyles.field}>
          <span>Area</span>
          <select value={query.area} onChange={(e) => change({ area: e.target.value as FilterDeviceType })}>
            {AREAS.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <LinkButton onClick={() => reset()}>Reset filter</LinkButton>
      </div>
      <div className={styles.stats}>
        <div>
          <span className={sectionStyles.statLabel}>Total dispense</span>
          <strong className={sectionStyles.statValue} data-testid="dispense-total">
            {formatNumber(total)}
          </strong>
          <span className={sectionStyles.statNote}>
            Left {formatNumber(log?.total_left_pump_dispensation ?? 0)} · Right{' '}
            {formatNumber(log?.total_right_pump_dispensation ?? 0)}
          </span>
        </div>
        <div>
          <span className={sectionStyles.statLabel}>Remaining</span>
          <strong className={sectionStyles.statValue} data-testid="remaining-tsp">
            {formatNumber(remainingTsp(volume), 1)} tsp
          </strong>
          {operator ? (
            <Button
              variant="secondary"
              className={sectionStyles.smallButton}
              onClick={() => setConfirmReset(true)}
              loading={acting}
            >
              RESET tsp
            </Button>
          ) : null}
        </div>
      </div>
      <Chart
        label={`Dispensing and fluid level, ${query.dateType.toLowerCase()}`}
        height={220}
        placeholder={placeholder}
        series={[
          { name: 'Dispensed', type: 'column', data: shown.map((r) => r.value) },
          { name: 'Fluid level', type: 'line', data: remain.map((r) => r.value) },
        ]}
        options={dispensingChartOptions(categories)}
      />
      {daily && pages > 1 ? (
        <div className={styles.pager}>
          <Button
            variant="secondary"
            className={sectionStyles.smallButton}
            disabled={page === 0}
            onClick={() => setPage(page - 1)}
          >
            Earlier
          </Button>
          <span data-testid="analytics-window">{pageHours(rows, page)}</span>
          <Button
            variant="secondary"
            className={sectionStyles.smallButton}
            disabled={page >= pages - 1}
            onClick={() => setPage(page + 1)}
          >
            Later
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirmReset}
        title="Reset tsp ?"
        onCancel={() => setConfirmReset(false)}
        onConfirm={() => {
          setConfirmReset(false);
          act({ serial: device.serial, kind: 'resetMl', pump: query.pump });
        }}
      >
        <p>
          The remaining amount of the {query.pump === 1 ? 'left' : 'right'} pump goes back to a full reservoir (after a refill).
        </p>
      </ConfirmDialog>
    </Card>
  );
}

function label(date: string, type: FilterDateType) {
  const d = dayjs(date.slice(0, 19));
  return type === 'DAILY' ? d.format('HH:mm') : type === 'WEEKLY' ? d.format('ddd D') : d.format('MMM YYYY');
}

function ControlPanel({ device, operator }: { device: PanelDevice; operator: boolean }) {
  const [act, pending, select, optimistic] = useUnit([deviceActionFx, deviceActionFx.pending, sectionSelected, $optimistic]);
  // While a call runs the toggle shows the value asked for; a failure puts it back (spec section 4).
  const shown = {
    maintenance: toggleShown(optimistic, device.serial, 'maintenance', device.is_enabled_maintenance),
    active: toggleShown(optimistic, device.serial, 'active', device.is_activated),
    vandalism: toggleShown(optimistic, device.serial, 'vandalism', device.is_enabled_vandalism),
    pause: toggleShown(optimistic, device.serial, 'pause', device.is_pause),
  };
  const [confirm, setConfirm] = useState<'pause' | 'rental' | null>(null);
  // A toggle whose change stops the machine or locks out its users waits here for Yes (panel-lib says which).
  const [asked, setAsked] = useState<{ kind: ToggleKind; value: boolean; question: Confirmation } | null>(null);
  const toggle = (kind: ToggleKind, value: boolean) => {
    const question = toggleConfirmation(kind, value);
    if (question) setAsked({ kind, value, question });
    else act({ serial: device.serial, kind, value });
  };
  const indicators = pendingIndicators(device.pending_flags);
  const updateAfter = indicators.length ? updateAfterText(device.next_wakeup_time, device.timezone_id) : null;
  const rentalOn = device.rental !== null;
  const disabled = !operator || pending;
  const why = operator ? undefined : 'Only distributors can change devices';

  return (
    <Card aria-labelledby="controls-title">
      <CardHead>
        <CardTitle id="controls-title">Device control</CardTitle>
        <PendingChips device={device} />
      </CardHead>
      {updateAfter ? <p className={sectionStyles.updateAfter}>{updateAfter}</p> : null}
      <div className={styles.toggles}>
        <SwitchButton
          dimWhenOff={false}
          pressed={rentalOn}
          disabled={disabled}
          title={why}
          onClick={() => (rentalOn ? setConfirm('rental') : select('subscription'))}
        >
          Rental Plan
        </SwitchButton>
        <SwitchButton
          dimWhenOff={false}
          pressed={shown.maintenance}
          disabled={disabled}
          title={why}
          onClick={() => toggle('maintenance', !shown.maintenance)}
        >
          Maintenance
        </SwitchButton>
        <SwitchButton
          dimWhenOff={false}
          pressed={shown.active}
          disabled={disabled || rentalOn}
          title={rentalOn ? 'A rental plan keeps this device activated' : why}
          onClick={() => toggle('active', !shown.active)}
        >
          {rentalOn ? 'Force Activated' : shown.active ? 'Activated' : 'Deactivated'}
        </SwitchButton>
        <SwitchButton
          dimWhenOff={false}
          pressed={shown.vandalism}
          disabled={disabled}
          title={why}
          onClick={() => toggle('vandalism', !shown.vandalism)}
        >
          Anti vandalism
        </SwitchButton>
        <Button
          variant={shown.pause ? 'success' : 'secondary'}
          disabled={disabled}
          title={why}
          onClick={() => setConfirm('pause')}
        >
          {shown.pause ? 'Resume Device' : 'Pause Device'}
        </Button>
      </div>
      {device.pending_changes?.length ? (
        <div className={styles.pendingList} data-testid="pending-list">
          <SectionTitle>Waiting for the device</SectionTitle>
          <ul>
            {device.pending_changes.map((c) => (
              <li key={c.id}>
                <span>
                  <strong>{settingName(c.setting)}</strong> asked {siteDateTime(c.requested_at, device.timezone_id)}
                  {c.expected_at ? `, expected ${siteDateTime(c.expected_at, device.timezone_id)}` : ''}
                </span>
                {operator ? (
                  <LinkButton
                    onClick={() => act({ serial: device.serial, kind: 'cancel', changeId: c.id })}
                    aria-label={`Cancel the ${settingName(c.setting)} change`}
                  >
                    Cancel
                  </LinkButton>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirm === 'pause'}
        title={device.is_pause ? 'Resume Device?' : 'Pause Device?'}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          setConfirm(null);
          act({ serial: device.serial, kind: 'pause', value: !device.is_pause });
        }}
      >
        <p>
          {device.is_pause
            ? 'The device dispenses again after its next wake-up.'
            : 'The device stops dispensing after its next wake-up.'}
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asked !== null}
        title={asked?.question.title ?? ''}
        onCancel={() => setAsked(null)}
        onConfirm={() => {
          setAsked(null);
          if (asked) act({ serial: device.serial, kind: asked.kind, value: asked.value });
        }}
      >
        <p>{asked?.question.body}</p>
      </ConfirmDialog>
      {/* The spec's Yes does nothing: a plan ends on its end date (Device Subscription changes it). */}
      <ConfirmDialog
        open={confirm === 'rental'}
        title="Switch Off Rental Plan?"
        onCancel={() => setConfirm(null)}
        onConfirm={() => setConfirm(null)}
      >
        <p>The plan runs until its end date; change it under Device Subscription.</p>
      </ConfirmDialog>
    </Card>
  );
}
