import { addDays, dayCountLabel, rentalDayCount, supportsRightPump } from '@fleet/shared';
import dayjs from 'dayjs';
import { useUnit } from 'effector-react';
import { useEffect, useState } from 'react';
import { Button, Spinner } from '../../../shared/ui';
import { $now } from '../../clock-panel';
import { fetchRentalFx, saveRentalFx, type Rental } from '../controls.model';
import { siteToday, updateAfterText } from '../lib/panel-lib';
import { $multiSelected, multiSelectToggled, type PanelDevice } from '../model';
import { PendingChips } from './pending-chips';
import styles from './device-panel.module.css';

/** Quarter hours of a day as 'HH:mm', shown 12-hour (spec section 9: 15-minute steps, 12-hour). */
const TIMES = Array.from({ length: 96 }, (_, i) => `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`);
const twelveHour = (t: string) => dayjs(`2000-01-01T${t}`).format('h:mm A');

type Form = { startDate: string; endDate: string; startTime: string | null; endTime: string | null; pump2StartTime: string | null; pump2EndTime: string | null };
/** A new plan starts on the site's today and runs 30 days (the site's calendar, not the browser's). */
const formOf = (r: Rental | null, today: string): Form => ({
  startDate: r?.start_date ?? today,
  endDate: r?.end_date ?? addDays(today, 30),
  startTime: r?.start_time?.slice(0, 5) ?? null,
  endTime: r?.end_time?.slice(0, 5) ?? null,
  pump2StartTime: r?.pump_2_start_time?.slice(0, 5) ?? null,
  pump2EndTime: r?.pump_2_end_time?.slice(0, 5) ?? null,
});

/** Device Subscription (spec section 2): rental dates with day count and the daily timer per pump. */
export function SubscriptionSection({ device }: { device: PanelDevice }) {
  const [load, save, saving, now, chosen, toggleMulti] = useUnit([fetchRentalFx, saveRentalFx, saveRentalFx.pending, $now, $multiSelected, multiSelectToggled]);
  const today = siteToday(now, device.timezone_id);
  const [rental, setRental] = useState<Rental | null | undefined>(undefined);
  const [form, setForm] = useState<Form>(formOf(null, today));
  const [editing, setEditing] = useState(false);
  const [pump, setPump] = useState<1 | 2>(1);
  const twoPumps = supportsRightPump(device);
  useEffect(() => {
    let live = true;
    setRental(undefined);
    load(device.serial)
      .then((r) => {
        if (!live) return;
        const has = r.start_date ? r : null;
        setRental(has);
        setForm(formOf(has, siteToday(Date.now(), device.timezone_id)));
        setEditing(!has);
      })
      .catch(() => live && setRental(null));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read again only for another device; its time zone at that moment is enough for the form's first day
  }, [device.serial, load]);

  if (rental === undefined)
    return (
      <p className={styles.empty}>
        <Spinner size={16} /> Loading ...
      </p>
    );
  const days = form.endDate >= form.startDate ? rentalDayCount(form.startDate, form.endDate) : 0;
  const timeKeys = pump === 1 ? (['startTime', 'endTime'] as const) : (['pump2StartTime', 'pump2EndTime'] as const);
  // The status line, the save's message and the RENTAL marker tell one story: a saved plan is stored at once
  // and reaches the device at its next wake-up; until then it is marked waiting.
  const waiting = device.pending_flags.rental_changed;
  const after = waiting ? updateAfterText(device.next_wakeup_time, device.timezone_id) : null;
  const status = rental
    ? `Plan from ${dayjs(rental.start_date).format('D MMM YYYY')} to ${dayjs(rental.end_date).format('D MMM YYYY')}${waiting ? `, waiting for the device${after ? ` (${after})` : ''}` : ''}`
    : 'No rental plan on this device.';
  const serials = chosen ?? [device.serial];
  const submit = () =>
    save({ serials, ...form })
      .then((answer) => {
        const mine = answer.rentals.find((r) => r.serial === device.serial);
        if (mine) setRental(mine);
        setEditing(false);
      })
      .catch(() => undefined);

  return (
    <section className={styles.card} aria-labelledby="rental-title">
      <div className={styles.cardHead}>
        <h3 id="rental-title" className={styles.cardTitle}>
          Device Subscription
        </h3>
        {/* The RENTAL marker beside the status line it agrees with. */}
        <PendingChips device={device} />
      </div>
      <p className={styles.updateAfter} role="status" data-testid="rental-status">
        {status}
      </p>
      <div className={styles.formRow}>
        <label className={styles.field}>
          <span>Start Date</span>
          <input type="date" value={form.startDate} disabled={!editing} onChange={(e) => setForm({ ...form, startDate: e.target.value })} />
        </label>
        <label className={styles.field}>
          <span>End Date</span>
          <input type="date" value={form.endDate} min={form.startDate} disabled={!editing} onChange={(e) => setForm({ ...form, endDate: e.target.value })} />
        </label>
        <span className={styles.dayCount} aria-live="polite">
          {dayCountLabel(days)}
        </span>
      </div>
      <h4 className={styles.subTitle}>Daily Timer Setup</h4>
      <div className={styles.segmented} role="group" aria-label="Timer pump">
        <button type="button" aria-pressed={pump === 1} onClick={() => setPump(1)}>
          Left Pump
        </button>
        <button type="button" aria-pressed={pump === 2} aria-disabled={!twoPumps || undefined} title={twoPumps ? undefined : 'This device has one pump (software 1.0.9 or later for two)'} onClick={() => twoPumps && setPump(2)}>
          Right Pump
        </button>
      </div>
      <div className={styles.formRow}>
        {(['Start time', 'End time'] as const).map((label, i) => (
          <label key={label} className={styles.field}>
            <span>{label}</span>
            <select value={form[timeKeys[i]!] ?? ''} disabled={!editing} onChange={(e) => setForm({ ...form, [timeKeys[i]!]: e.target.value || null })}>
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
            {chosen ? <span className={styles.hint} data-testid="multi-count">{`Plan for ${chosen.length} device${chosen.length === 1 ? '' : 's'}: choose them on the right`}</span> : null}
            <Button loading={saving} onClick={submit}>
              Save
            </Button>
          </>
        ) : (
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit
          </Button>
        )}
      </div>
    </section>
  );
}
