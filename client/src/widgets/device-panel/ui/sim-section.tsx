import { signalBand, WEEK_STARTS_ON, type SimLogRow } from '@fleet/shared';
import dayjs from 'dayjs';
import { useUnit } from 'effector-react';
import { $now } from '../../../shared/lib';
import { Button, Card, CardHead, CardTitle, Chart, DataTable, Spinner, type DataColumn } from '../../../shared/ui';
import { hourlyUsageChartOptions } from '../lib/chart-options';
import { siteMonth, siteToday } from '../lib/panel-lib';
import { $smsLog, $smsLogStatus, smsKey, type PanelDevice } from '../model';
import { $usageDay, $usageMonth, dayUsage, monthUsage, usageDaySelected, usageMonthChanged } from '../telemetry.model';
import sectionStyles from './panel-section.module.css';
import styles from './sim-section.module.css';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const STATUS_CLASS: Record<string, string | undefined> = {
  'LOW USAGE': styles.usageLow,
  NORMAL: styles.usageNormal,
  'HIGH USAGE': styles.usageHigh,
};
const SMS_COLUMNS: DataColumn<SimLogRow>[] = [
  { key: 'direction', header: 'DIRECTION', cell: (r) => r.direction },
  { key: 'message', header: 'MESSAGE', cell: (r) => r.message },
  { key: 'created', header: 'CREATED TIME', cell: (r) => dayjs(r.created_when.slice(0, 19)).format('D MMM YYYY h:mm A') },
];
const BAND_LEVEL: Record<string, number> = { 'no signal': 0, poor: 1, fair: 2, good: 3, excellent: 4 };

/** SIM Management (spec section 2): month calendar of daily usage, a day's hours, signal, SMS log. */
export function SimSection({ device }: { device: PanelDevice }) {
  const band = signalBand(device.signal_quality, device.warning_lists);
  const level = BAND_LEVEL[band] ?? 0;
  return (
    <div className={sectionStyles.sectionGrid}>
      <Card aria-labelledby="usage-title">
        <CardHead>
          <CardTitle id="usage-title">Data usage</CardTitle>
          <div className={styles.signal} aria-label={`Signal quality: ${band}`}>
            <span className={styles.bars} aria-hidden="true">
              {[1, 2, 3, 4].map((b) => (
                <span key={b} className={b <= level ? styles.barOn : undefined} style={{ height: 4 + b * 4 }} />
              ))}
            </span>
            <span className={sectionStyles.statNote}>
              Signal {band}
              {device.signal_quality != null ? ` (${device.signal_quality})` : ''}
            </span>
          </div>
        </CardHead>
        <UsageCalendar zone={device.timezone_id} />
        <DayUsage />
        <dl className={styles.simFacts}>
          <div>
            <dt>Phone</dt>
            <dd>{device.simcardPhoneNumber ?? 'None'}</dd>
          </div>
          <div>
            <dt>IMEI</dt>
            <dd>{device.imei ?? 'None'}</dd>
          </div>
          <div>
            <dt>SIM serial</dt>
            <dd>{device.simSerialNumber ?? 'None'}</dd>
          </div>
        </dl>
      </Card>
      <SmsLog />
    </div>
  );
}

/** The month calendar on the site's calendar: its current month, its today (a browser elsewhere shows the same days). */
function UsageCalendar({ zone }: { zone: string | null }) {
  const [picked, data, status, day, changeMonth, selectDay, now] = useUnit([
    $usageMonth,
    monthUsage.$data,
    monthUsage.$status,
    $usageDay,
    usageMonthChanged,
    usageDaySelected,
    $now,
  ]);
  const month = picked || siteMonth(now, zone);
  const first = dayjs(`${month}-01`);
  // Weeks start on Monday (spec section 9): blanks before the 1st up to its weekday.
  const lead = (first.day() - WEEK_STARTS_ON + 7) % 7;
  const days = first.daysInMonth();
  const cells: (string | null)[] = [
    ...Array<null>(lead).fill(null),
    ...Array.from({ length: days }, (_, i) => first.date(i + 1).format('YYYY-MM-DD')),
  ];
  const isCurrentMonth = month >= siteMonth(now, zone);
  const today = siteToday(now, zone);
  return (
    <div className={styles.calendar}>
      <div className={styles.calendarHead}>
        <Button
          variant="secondary"
          className={sectionStyles.smallButton}
          onClick={() => changeMonth(first.subtract(1, 'month').format('YYYY-MM'))}
          aria-label="Previous month"
        >
          ‹
        </Button>
        <strong aria-live="polite">{first.format('MMMM YYYY')}</strong>
        <Button
          variant="secondary"
          className={sectionStyles.smallButton}
          disabled={isCurrentMonth}
          onClick={() => changeMonth(first.add(1, 'month').format('YYYY-MM'))}
          aria-label="Next month"
        >
          ›
        </Button>
        {status === 'loading' ? <Spinner size={16} /> : null}
      </div>
      <div className={styles.calendarGrid} role="grid" aria-label={`Daily data usage, ${first.format('MMMM YYYY')}`}>
        <div role="row" className={styles.calendarRow}>
          {WEEKDAYS.map((w) => (
            <span key={w} role="columnheader" className={styles.weekday}>
              {w}
            </span>
          ))}
        </div>
        {Array.from({ length: Math.ceil(cells.length / 7) }, (_, week) => (
          <div role="row" key={week} className={styles.calendarRow}>
            {cells.slice(week * 7, week * 7 + 7).map((date, i) => {
              if (!date) return <span key={`b${i}`} role="gridcell" />;
              // Days still to come have no usage yet, whatever the answer says.
              const usage = date <= today ? data?.[date] : undefined;
              return (
                <span role="gridcell" key={date}>
                  <button
                    type="button"
                    className={[styles.day, usage ? STATUS_CLASS[usage.status] : '', day === date ? styles.daySelected : ''].join(
                      ' ',
                    )}
                    aria-pressed={day === date}
                    // Starts with what the cell shows (day, status) so the name holds the visible text (WCAG 2.5.3).
                    aria-label={`${Number(date.slice(8))}${usage ? ` ${usage.status}, ${usage.usage} mb` : ''}, ${dayjs(date).format('MMMM')}`}
                    onClick={() => selectDay(day === date ? null : date)}
                  >
                    <span>{Number(date.slice(8))}</span>
                    {/* A space, so the visible text reads '1 NO DATA' (as the name does), not '1NO DATA'. */}
                    {usage ? (
                      <>
                        {' '}
                        <span className={styles.dayStatus}>{usage.status}</span>
                      </>
                    ) : null}
                  </button>
                </span>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

function DayUsage() {
  const [day, hours, status] = useUnit([$usageDay, dayUsage.$data, dayUsage.$status]);
  if (!day) return <p className={sectionStyles.hint}>Choose a day to see its hours.</p>;
  const total = (hours ?? []).reduce((sum, h) => sum + h.value, 0);
  return (
    <div>
      <p className={styles.dayTotal}>
        {dayjs(day).format('D MMM YYYY')}: <strong>{total.toFixed(2)} mb</strong>
      </p>
      <Chart
        label={`Hourly data usage on ${day}`}
        height={160}
        placeholder={
          status === 'loading' ? 'Loading...' : status === 'failed' || !hours?.length ? 'No Data present in the graph!' : null
        }
        type="bar"
        series={[{ name: 'mb', data: (hours ?? []).map((h) => h.value) }]}
        options={hourlyUsageChartOptions((hours ?? []).map((h) => h.name))}
      />
    </div>
  );
}

function SmsLog() {
  const [rows, status] = useUnit([$smsLog, $smsLogStatus]);
  return (
    <Card aria-labelledby="sms-title">
      <CardTitle id="sms-title">SMS log</CardTitle>
      {status === 'failed' ? (
        <p className={sectionStyles.empty}>something went wrong ..</p>
      ) : rows === null ? (
        <p className={sectionStyles.empty}>
          <Spinner size={16} /> Loading ...
        </p>
      ) : (
        <DataTable
          data-testid="sms-log"
          aria-label="SMS log"
          maxHeight={420}
          columns={SMS_COLUMNS}
          rows={rows}
          rowKey={smsKey}
          empty="No data available"
        />
      )}
    </Card>
  );
}
