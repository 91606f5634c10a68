import { SERVICE_PLAN_STATUS_LABEL, type Crew, type CrewInput, type CrewPlanAnswer } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  $chosenCrewIds,
  $crewErrors,
  $crews,
  $crewsFailed,
  $date,
  $message,
  $plan,
  $planning,
  $publishing,
  $savedCrew,
  crewDeleted,
  crewSaved,
  crewToggled,
  dateChanged,
  planClicked,
  publishClicked,
  routeColor,
  serviceDayClosed,
  serviceDayOpened,
} from '../../../features/service-day';
import { ArrowLeftIcon, Button } from '../../../shared/ui';
import styles from './service-day.module.css';

/** "08:40" and "UTC-06:00" from a zoned ISO time: the ETA is in its site's time, labelled. */
const clock = (iso: string) => iso.slice(11, 16);
const zone = (iso: string) => `UTC${iso.slice(19)}`;

/**
 * The Service day view (issue 48), opened from the dashboard's Service Day tile: the date and the crews
 * (add, edit, untick), Plan and Publish with their answers, then each crew's plan in its route's colour
 * (the routes are drawn on the map: widgets/map/offline/service-route-layer.tsx): its stops with ETA (site
 * time, zone labelled), reasons in words, refills and battery, the pick list and totals; the unplanned with why.
 */
export function ServiceDayView({ onBack }: { onBack: () => void }) {
  const [open, close, date, setDate, crews, chosen, toggle, crewsFailed] = useUnit([
    serviceDayOpened,
    serviceDayClosed,
    $date,
    dateChanged,
    $crews,
    $chosenCrewIds,
    crewToggled,
    $crewsFailed,
  ]);
  const [plan, planning, publishing, message, doPlan, doPublish] = useUnit([
    $plan,
    $planning,
    $publishing,
    $message,
    planClicked,
    publishClicked,
  ]);
  const [editing, setEditing] = useState<Crew | 'new' | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    open();
    heading.current?.focus();
    return () => close();
  }, [open, close]);

  const published = plan && plan.status !== 'draft' && plan.status !== 'superseded';
  return (
    <section className={styles.view} aria-labelledby="service-day-title" data-testid="service-day">
      <div className={styles.header}>
        <button type="button" className={styles.iconButton} onClick={onBack} aria-label="Back to the dashboard">
          <ArrowLeftIcon size={18} />
        </button>
        <h3 id="service-day-title" className={styles.title} ref={heading} tabIndex={-1}>
          Service Day
        </h3>
      </div>

      <div className={styles.row}>
        <label className={styles.field}>
          <span className={styles.label}>Date</span>
          <input
            className={styles.input}
            type="date"
            value={date}
            onChange={(e) => e.target.value && setDate(e.target.value)}
            data-testid="service-date"
          />
        </label>
        <Button onClick={() => doPlan()} disabled={planning} data-testid="plan-button">
          {planning ? 'Planning…' : 'Plan'}
        </Button>
        <Button
          variant="secondary"
          onClick={() => doPublish()}
          disabled={!plan || publishing || !!published}
          data-testid="publish-button"
        >
          {publishing ? 'Publishing…' : published ? 'Published' : 'Publish'}
        </Button>
      </div>
      <div role="status" aria-live="polite">
        {message ? (
          <p className={message.kind === 'ok' ? styles.ok : styles.error} data-testid="service-message">
            {message.text}
          </p>
        ) : null}
      </div>

      <div>
        <div className={styles.row}>
          <span className={[styles.label, styles.grow].join(' ')}>
            Crews ({chosen.length} of {crews.length} chosen)
          </span>
          <Button variant="secondary" className={styles.small} onClick={() => setEditing('new')} data-testid="add-crew">
            Add crew
          </Button>
        </div>
        {crewsFailed ? <p className={styles.error}>The crews could not be loaded.</p> : null}
        {!crews.length && !crewsFailed ? <p className={styles.muted}>No crews yet: add one to plan a day.</p> : null}
        <ul className={styles.crews}>
          {crews.map((c, i) => (
            <li key={c.id} className={styles.crew}>
              <span className={styles.swatch} style={{ background: routeColor(i) }} aria-hidden="true" />
              <label className={styles.grow}>
                <input type="checkbox" checked={chosen.includes(c.id)} onChange={() => toggle(c.id)} /> {c.name}{' '}
                <span className={styles.muted}>
                  {c.startTime}-{c.endTime} ({c.timeZone}), {c.capacityLitres} L, {c.capacityBatteries} batteries
                </span>
              </label>
              <Button variant="secondary" className={styles.small} onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
                Edit
              </Button>
            </li>
          ))}
        </ul>
        {editing ? <CrewForm crew={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}
      </div>

      {plan ? (
        <div data-testid="service-plan" data-plan-id={plan.id} data-status={plan.status}>
          <p className={styles.note}>
            <strong>
              {plan.date}, version {plan.version}: {SERVICE_PLAN_STATUS_LABEL[plan.status]}
            </strong>
            {plan.publishedAt ? ` · ${plan.progress.done} of ${plan.progress.stops} stops done` : ''}
          </p>
          {plan.note ? (
            <p className={styles.note} data-testid="plan-note">
              {plan.note}
            </p>
          ) : null}
          {plan.shortages.map((s) => (
            <p key={`${s.brand}-${s.fluid}`} className={styles.error}>
              {s.text}
            </p>
          ))}
          {plan.crews.map((c) => (
            <CrewPlanView
              key={c.crew.id}
              plan={c}
              color={routeColor(
                Math.max(
                  0,
                  crews.findIndex((x) => x.id === c.crew.id),
                ),
              )}
            />
          ))}
          {plan.unplanned.length ? (
            <div>
              <h4 className={styles.label}>Unplanned ({plan.unplanned.length})</h4>
              <ul className={styles.list} data-testid="unplanned">
                {plan.unplanned.map((u) => (
                  <li key={u.serial}>
                    {u.serial} at {u.site.name}: {u.reasons.join('; ')}. <em>{u.why}</em>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function CrewPlanView({ plan: c, color }: { plan: CrewPlanAnswer; color: string }) {
  if (!c.stops.length) return <p className={styles.muted}>{c.crew.name}: no stops.</p>;
  const tz = zone(c.stops[0]!.eta);
  return (
    <div className={styles.crewPlan} style={{ borderColor: color }} data-testid="crew-plan" data-crew={c.crew.id}>
      <strong>{c.crew.name}</strong>
      <span className={styles.muted}>
        {c.totals.stops} stops, {c.totals.devices} devices, {c.totals.km} km, {c.totals.drivingMinutes} min driving; back{' '}
        {clock(c.totals.returnAt)}. Times in site time ({tz}).
      </span>
      <ol className={styles.stops}>
        {c.stops.map((s) => (
          <li key={s.order} className={s.done ? styles.done : ''} data-testid="stop">
            <strong>
              {clock(s.eta)} {s.site.name || s.site.address}
            </strong>{' '}
            {s.done ? <span aria-label="done">✓ done</span> : null}
            <ul className={styles.list}>
              {s.devices.map((d) => (
                <li key={d.serial}>
                  {d.serial}
                  {d.topUp ? ' (top-up)' : ''}: {d.reasons.join('; ')}
                  {d.refill.length ? (
                    <>
                      {' '}
                      · refill{' '}
                      {d.refill
                        .map(
                          (r) =>
                            `${r.pump === 1 ? 'left' : 'right'} ${r.litres} L${r.batchNumber ? ` from ${r.batchNumber}` : ' (no usable batch)'}`,
                        )
                        .join(', ')}
                    </>
                  ) : null}
                  {d.battery ? ' · swap battery' : ''}
                  {d.serviced ? ' · serviced' : ''}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      <div>
        <span className={styles.label}>Pick list</span>
        <ul className={styles.list}>
          {c.pickList.batches.map((b) => (
            <li key={b.batchNumber}>
              {b.batchNumber} ({b.brand}, {b.fluid.toLowerCase()}): {b.litres} L
            </li>
          ))}
          <li>
            <strong>
              {c.pickList.litres} L in all, {c.pickList.batteries} batteries
            </strong>
          </li>
          {c.pickList.shortages.map((s) => (
            <li key={s.text} className={styles.error}>
              {s.text}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function CrewForm({ crew, onDone }: { crew: Crew | null; onDone: () => void }) {
  const [save, remove, errors, saved] = useUnit([crewSaved, crewDeleted, $crewErrors, $savedCrew]);
  const first = useRef(saved);
  useEffect(() => {
    if (saved !== first.current) onDone();
  }, [saved, onDone]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? '').trim();
    const num = (k: string) => (text(k) === '' ? (undefined as unknown as number) : Number(text(k)));
    const body: CrewInput = {
      name: text('name'),
      email: text('email'),
      phone: text('phone'),
      depot: { address: text('address'), lat: num('lat'), lng: num('lng') },
      startTime: text('startTime'),
      endTime: text('endTime'),
      capacityLitres: num('capacityLitres'),
      capacityBatteries: num('capacityBatteries'),
    };
    save({ id: crew?.id ?? null, body });
  };
  const field = (name: string, label: string, value: string | number | undefined, type = 'text', wide = false) => (
    <label className={[styles.field, wide ? styles.wide : ''].join(' ')}>
      <span className={styles.label}>{label}</span>
      <input
        className={styles.input}
        name={name}
        type={type}
        step={type === 'number' ? 'any' : undefined}
        defaultValue={value ?? ''}
        aria-invalid={errors[name] ? true : undefined}
      />
      {errors[name] ? <span className={styles.error}>{errors[name]![0]}</span> : null}
    </label>
  );
  return (
    <form
      className={styles.form}
      onSubmit={submit}
      aria-label={crew ? `Edit ${crew.name}` : 'Add a crew'}
      data-testid="crew-form"
    >
      {field('name', 'Name', crew?.name, 'text', true)}
      {field('email', 'Email', crew?.email, 'email')}
      {field('phone', 'Phone', crew?.phone, 'tel')}
      {field('address', 'Depot address', crew?.depot.address, 'text', true)}
      {field('lat', 'Depot latitude', crew?.depot.lat, 'number')}
      {field('lng', 'Depot longitude', crew?.depot.lng, 'number')}
      {errors.depot ? <p className={[styles.error, styles.wide].join(' ')}>{errors.depot[0]}</p> : null}
      {field('startTime', 'Start (depot time)', crew?.startTime ?? '08:00', 'time')}
      {field('endTime', 'End (depot time)', crew?.endTime ?? '17:00', 'time')}
      {field('capacityLitres', 'Van litres', crew?.capacityLitres ?? 60, 'number')}
      {field('capacityBatteries', 'Van batteries', crew?.capacityBatteries ?? 6, 'number')}
      <div className={[styles.row, styles.wide].join(' ')}>
        <Button type="submit" className={styles.small}>
          Save crew
        </Button>
        <Button type="button" variant="secondary" className={styles.small} onClick={onDone}>
          Cancel
        </Button>
        {crew ? (
          <Button type="button" variant="secondary" className={styles.small} onClick={() => (remove(crew.id), onDone())}>
            Delete crew
          </Button>
        ) : null}
      </div>
    </form>
  );
}
