import { dayCountLabel, plural, rentalDayCount, supportsRightPump } from '@fleet/shared';
import dayjs from 'dayjs';
import { useUnit } from 'effector-react';
import { useState } from 'react';
import { Button, Card, CardHead, CardTitle, SectionTitle, Segmented, Spinner } from '../../../shared/ui';
import { saveRentalFx } from '../../../features/rental-plan';
import { updateAfterText } from '../lib/panel-lib';
import { $multiSelected, multiSelectToggled, type PanelDevice } from '../model';
import {
  $rental,
  $rentalEditing,
  $rentalForm,
  $rentalProblem,
  $rentalStatus,
  rentalEditStarted,
  rentalFormChanged,
  rentalSaveClicked,
} from '../setup.model';
import { PendingChips } from './pending-chips';
import sectionStyles from './panel-section.module.css';
import styles from './subscription-section.module.css';

/** Quarter hours of a day as 'HH:mm', shown 12-hour (spec section 9: 15-minute steps, 12-hour). */
const TIMES = Array.from(
  { length: 96 },
  (_, i) => `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
);
const twelveHour = (t: string) => dayjs(`2000-01-01T${t}`).format('h:mm A');

/** Device Subscription (spec section 2): rental dates with day count and the daily timer per pump. */
export function SubscriptionSection({ device }: { device: PanelDevice }) {
  const [rental, loadStatus, form, editing, saving, chosen, problem] = useUnit([
    $rental,
    $rentalStatus,
    $rentalForm,
    $rentalEditing,
    saveRentalFx.pending,
    $multiSelected,
    $rentalProblem,
  ]);
  const [change, edit, submit, toggleMulti] = useUnit([
    rentalFormChanged,
    rentalEditStarted,
    rentalSaveClicked,
    multiSelectToggled,
  ]);
  const [pump, setPump] = useState<1 | 2>(1);
  const twoPumps = supportsRightPump(device);

  if (loadStatus === 'loading')
    return (
      <p className={sectionStyles.empty}>
        <Spinner size={16} /> Loading ...
      </p>
    );
  const days = problem === null ? rentalDayCount(form.startDate, form.endDate) : 0;
  const timeKeys = pump === 1 ? (['startTime', 'endTime'] as const) : (['pump2StartTime', 'pump2EndTime'] as const);
  // The status line, the save's message and the RENTAL marker tell one story: a saved plan is stored at once
  // and reaches the device at its next wake-up; until then it is marked waiting.
  const waiting = device.pending_flags.rental_changed;
  const after = waiting ? updateAfterText(device.next_wakeup_time, device.timezone_id) : null;
  const status = rental
    ? `Plan from ${dayjs(rental.start_date).format('D MMM YYYY')} to ${dayjs(rental.end_date).format('D MMM YYYY')}${waiting ? `, waiting for the device${after ? ` (${after})` : ''}` : ''}`
    : 'No rental plan on this device.';

  return (
    <Card aria-labelledby="rental-title">
      <CardHead>
        <CardTitle id="rental-title">Device Subscription</CardTitle>
        {/* The RENTAL marker beside the status line it agrees with. */}
        <PendingChips device={device} />
      </CardHead>
      <p className={sectionStyles.updateAfter} role="status" data-testid="rental-status">
        {status}
      </p>
      <div className={sectionStyles.formRow}>
        <label className={sectionStyles.field}>
          <span>Start Date</span>
          <input type="date" value={form.startDate} disabled={!editing} onChange={(e) => change({ startDate: e.target.value })} />
        </label>
        <label className={sectionStyles.field}>
          <span>End Date</span>
          <input
            type="date"
            value={form.endDate}
            min={form.startDate}
            disabled={!editing}
            aria-invalid={editing && problem ? true : undefined}
            aria-describedby={editing && problem ? 'rental-problem' : undefined}
            onChange={(e) => change({ endDate: e.target.value })}
          />
        </label>
        <span className={styles.dayCount} aria-live="polite">
          {dayCountLabel(days)}
        </span>
      </div>
      {editing && problem ? (
        <p id="rental-problem" role="alert" className={sectionStyles.fieldProblem} data-testid="rental-problem">
          {problem}
        </p>
      ) : null}
      <SectionTitle>Daily Timer Setup</SectionTitle>
      <Segmented
        label="Timer pump"
        options={[
          { value: 1, label: 'Left Pump' },
          {
            value: 2,
            label: 'Right Pump',
            disabledReason: twoPumps ? undefined : 'This device has one pump (software 1.0.9 or later for two)',
          },
        ]}
        value={pump}
        onChange={setPump}
      />
      <div className={sectionStyles.formRow}>
        {(['Start time', 'End time'] as const).map((label, i) => (
          <label key={label} className={sectionStyles.field}>
            <span>{label}</span>
            <select
              value={form[timeKeys[i]!] ?? ''}
              disabled={!editing}
              onChange={(e) => change({ [timeKeys[i]!]: e.target.value || null })}
            >
              <option value="">All day</option>
              {TIMES.map((t) => (
                <option key={t} value={t}>
                  {twelveHour(t)}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <div className={styles.actionsRow}>
        {editing ? (
          <>
            {/* Multi-select: the right column's cards pick more devices of this site for the same plan. */}
            <Button variant="secondary" aria-pressed={chosen !== null} onClick={() => toggleMulti()}>
              {chosen ? 'Only this device' : 'Select devices'}
            </Button>
            {chosen ? (
              <span
                className={sectionStyles.hint}
                data-testid="multi-count"
              >{`Plan for ${plural(chosen.length, 'device')}: choose them on the right`}</span>
            ) : null}
            <Button
              loading={saving}
              disabled={problem !== null}
              aria-describedby={problem ? 'rental-problem' : undefined}
              onClick={() => submit()}
            >
              Save
            </Button>
          </>
        ) : (
          <Button variant="secondary" onClick={() => edit()}>
            Edit
          </Button>
        )}
      </div>
    </Card>
  );
}
