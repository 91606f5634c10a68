import { roundVolume, type CrewPlanAnswer, type MaintenanceDevice } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useId, useState, type FormEvent } from 'react';
import { navigateUrl } from '../../../entities/maintenance';
import { siteTime } from '../../../shared/lib';
import { Button, pageText } from '../../../shared/ui';
import { $allDevices, $crew, $crewChoices, $plansKeptAt, crewChosen, recordOpened } from '../model';
import styles from './maintenance-page.module.css';
import { NeedsList, PumpTable } from './device-parts';

/**
 * The crew the technician works in, picked on the phone and remembered there (localStorage); records carry
 * it. Declared, not proven: the credential is shared (docs/field-app.md). The choices are the crews of the
 * day's published plans; without a plan a crew is typed.
 */
export function CrewPicker() {
  const [crew, choices, choose] = useUnit([$crew, $crewChoices, crewChosen]);
  const selectId = useId();
  const [typed, setTyped] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const name = typed.trim();
    if (name) choose({ id: name, name });
    setTyped('');
  };
  return (
    <div className={styles.crew}>
      {choices.length ? (
        <>
          <label htmlFor={selectId} className={styles.legend}>
            Your crew
          </label>
          <select
            id={selectId}
            className={styles.select}
            value={crew?.id ?? ''}
            onChange={(e) => {
              const c = choices.find((x) => x.id === e.target.value);
              choose(c ?? null);
            }}
          >
            <option value="">Choose your crew</option>
            {crew && !choices.some((c) => c.id === crew.id) ? <option value={crew.id}>{crew.name}</option> : null}
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </>
      ) : (
        <form onSubmit={submit} className={styles.crewForm}>
          <label htmlFor={selectId} className={styles.legend}>
            Your crew{crew ? `: ${crew.name}` : ''}
          </label>
          <input
            id={selectId}
            className={styles.select}
            value={typed}
            maxLength={100}
            placeholder={crew ? 'Another crew name' : 'Crew name'}
            onChange={(e) => setTyped(e.target.value)}
          />
          <Button type="submit" variant="secondary" disabled={!typed.trim()}>
            Set crew
          </Button>
        </form>
      )}
      <span className={pageText.meta}>Kept on this phone; each record names it (declared, not checked).</span>
    </div>
  );
}

/** The declared crew's stops of the day in order, with its pick list and a Navigate link per stop. */
export function DayPlan({ plan }: { plan: CrewPlanAnswer }) {
  const [keptAt, devices] = useUnit([$plansKeptAt, $allDevices]);
  const zone = plan.crew.timeZone;
  const t = plan.totals;
  return (
    <section aria-labelledby="day-plan" data-testid="day-plan">
      <h2 id="day-plan" className={pageText.sectionTitle}>
        Today&apos;s plan for {plan.crew.name}
      </h2>
      <p className={pageText.meta}>
        {t.stops} {t.stops === 1 ? 'stop' : 'stops'}, {t.devices} {t.devices === 1 ? 'device' : 'devices'}, {t.km} km; out{' '}
        {siteTime(t.start, zone)}, back {siteTime(t.returnAt, zone)}.
        {keptAt ? ` No signal: the plan as this phone kept it (${siteTime(keptAt, zone)}).` : ''}
      </p>
      <PickList plan={plan} />
      <ol className={styles.list} aria-label="Stops in order">
        {plan.stops.map((s) => (
          <li key={s.order} className={styles.card} data-testid="plan-stop">
            <div className={styles.cardHead}>
              <div>
                <h3 className={styles.cardTitle}>
                  {s.order}. {s.site.name || s.site.address}
                  {s.done ? <span className={[styles.serial, styles.done].join(' ')}> Done</span> : null}
                </h3>
                <p className={styles.site}>
                  {s.site.address} · arrive {siteTime(s.eta, s.site.timeZone)} · {s.driveMinutes} min drive
                </p>
              </div>
              <a
                className={styles.navigate}
                href={navigateUrl(s.site)}
                target="_blank"
                rel="noreferrer"
                aria-label={`Navigate to stop ${s.order}, ${s.site.name || s.site.address}`}
              >
                Navigate
              </a>
            </div>
            <ul className={styles.stopDevices}>
              {s.devices.map((d) => (
                <PlannedDevice key={d.serial} planned={d} device={devices.find((x) => x.serial === d.serial)} />
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}

function PlannedDevice({
  planned,
  device,
}: {
  planned: CrewPlanAnswer['stops'][number]['devices'][number];
  device: MaintenanceDevice | undefined;
}) {
  const open = useUnit(recordOpened);
  const name = device ? `${device.number !== null ? `No. ${device.number} ` : ''}${device.label || 'NoName'}` : planned.serial;
  const work = [
    ...planned.refill.map(
      (r) =>
        `${r.pump === 1 ? 'Left' : 'Right'} pump: ${roundVolume(r.litres, 2)} L of ${r.fluid.toLowerCase()}${r.batchNumber ? ` from batch ${r.batchNumber}` : ', no batch available'}${r.replacesBatch ? ' (replaces the batch)' : ''}`,
    ),
    ...(planned.battery ? ['Swap the battery'] : []),
    ...planned.fix,
  ];
  return (
    <li className={styles.plannedDevice} data-testid="plan-device" data-serial={planned.serial}>
      <div className={styles.cardHead}>
        <h4 className={[styles.cardTitle, styles.deviceTitle].join(' ')}>
          {name} <span className={styles.serial}>{planned.serial}</span>
          {planned.serviced ? <span className={[styles.serial, styles.done].join(' ')}> Serviced</span> : null}
        </h4>
        <Button variant="secondary" onClick={() => open(planned.serial)} aria-label={`Record work on ${name}`}>
          Record work
        </Button>
      </div>
      <NeedsList items={planned.reasons} label="Reasons" />
      {work.length ? <p className={pageText.meta}>{work.join(' · ')}</p> : null}
      {device ? <PumpTable device={device} /> : <p className={pageText.meta}>Pump levels not on this phone yet.</p>}
    </li>
  );
}

function PickList({ plan }: { plan: CrewPlanAnswer }) {
  const p = plan.pickList;
  return (
    <details className={styles.pickList} open>
      <summary className={styles.legend}>
        Pick list: {roundVolume(p.litres, 2)} L, {p.batteries} {p.batteries === 1 ? 'battery' : 'batteries'}
      </summary>
      {p.batches.length ? (
        <table className={pageText.table}>
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col">Brand</th>
              <th scope="col">Fluid</th>
              <th scope="col">Litres</th>
            </tr>
          </thead>
          <tbody>
            {p.batches.map((b) => (
              <tr key={b.batchNumber}>
                <th scope="row" className={styles.batchNo}>
                  {b.batchNumber}
                </th>
                <td>{b.brand}</td>
                <td>{b.fluid}</td>
                <td>{roundVolume(b.litres, 2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className={pageText.meta}>No fluid to take.</p>
      )}
      {p.shortages.map((s) => (
        <p key={s.text} role="alert" className={pageText.error}>
          {s.text}
        </p>
      ))}
      {p.warningsToFix.length ? <p className={styles.legend}>Warnings to fix</p> : null}
      {p.warningsToFix.length ? (
        <ul className={styles.fixList} aria-label="Warnings to fix">
          {p.warningsToFix.map((w) => (
            <li key={`${w.serial}:${w.text}`}>
              {w.serial}: {w.text}
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}
