import {
  batchDayOf,
  batchesInFefoOrder,
  batchRefusal,
  refillBatchDefault,
  type Fluid,
  type MaintenanceDevice,
  type MaintenanceRefill,
} from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useId, useState, type ChangeEvent } from 'react';
import { needsOf, siteLine } from '../../../entities/maintenance';
import { failureMessage } from '../../../shared/api';
import { Button, pageText } from '../../../shared/ui';
import { resizePhoto } from '../lib/photo';
import { $crew, $plans, $recordError, $recordPending, $stock, recordClosed, recordSubmitted } from '../model';
import styles from './maintenance-page.module.css';
import { NeedsList, PumpTable } from './device-parts';

type Pump = 1 | 2;
const side = (pump: Pump) => (pump === 1 ? 'left' : 'right');
const Side = (pump: Pump) => (pump === 1 ? 'Left' : 'Right');
const isFluid = (t: string): t is Fluid => t === 'Sunscreen' || t === 'Sanitizer';

/**
 * One device's screen (after a scan, the label's link, or a card's Record work). Recording a refill takes
 * three taps: the action (Refill left), the batch (Use batch B-7: the plan's first-expiry-first-out pick,
 * else the device brand's first usable batch to expire), Save. A recalled or expired batch is listed with
 * the reason it cannot be chosen, and cannot be.
 */
export function DeviceScreen({ device }: { device: MaintenanceDevice }) {
  const [stock, plans, crew, pending, error, close, submit] = useUnit([
    $stock,
    $plans,
    $crew,
    $recordPending,
    $recordError,
    recordClosed,
    recordSubmitted,
  ]);
  const headingId = useId();
  const noteId = useId();
  const today = batchDayOf(new Date());
  const [refill, setRefill] = useState<Partial<Record<Pump, { batch: string | null; confirmed: boolean }>>>({});
  const [battery, setBattery] = useState(false);
  const [repaired, setRepaired] = useState(false);
  const [note, setNote] = useState('');
  const [photo, setPhoto] = useState<{ base64: string; bytes: number; width: number; height: number } | null>(null);
  const [photoState, setPhotoState] = useState<string | null>(null);

  const planned = plans
    .flatMap((p) => p.crews.flatMap((c) => c.stops.flatMap((s) => s.devices)))
    .find((d) => d.serial === device.serial);
  const pumps = device.pumps.filter((p) => isFluid(p.pump_type));
  const defaultOf = (pump: Pump, fluid: Fluid) =>
    refillBatchDefault(
      stock,
      { fluid, brandId: device.brand_id, planned: planned?.refill.find((r) => r.pump === pump)?.batchNumber ?? null },
      today,
    );
  const toggleRefill = (pump: Pump, fluid: Fluid) =>
    setRefill((r) => {
      const next = { ...r };
      if (next[pump]) delete next[pump];
      else next[pump] = { batch: defaultOf(pump, fluid), confirmed: false };
      return next;
    });
  const refills = Object.entries(refill) as [string, { batch: string | null; confirmed: boolean }][];
  const chosen = refills.length > 0 || battery || repaired;
  const ready = chosen && refills.every(([, r]) => r.confirmed && r.batch) && (!repaired || note.trim().length > 0);
  const save = () =>
    submit({
      refills: refills.map(([pump, r]): MaintenanceRefill => ({ pump: Number(pump) as Pump, batch: r.batch! })),
      battery_replaced: battery,
      repaired,
      note: note.trim(),
      ...(photo ? { photo: photo.base64 } : {}),
    });
  const photoChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setPhotoState('Resizing the photo…');
    try {
      setPhoto(await resizePhoto(file));
      setPhotoState(null);
    } catch (e) {
      setPhoto(null);
      setPhotoState(`The photo could not be read: ${failureMessage(e)}`);
    }
  };
  const needs = needsOf(device);

  return (
    <section
      aria-labelledby={headingId}
      className={[styles.card, styles.screen].join(' ')}
      data-testid="device-screen"
      data-serial={device.serial}
    >
      <div className={styles.cardHead}>
        <div>
          <h2 id={headingId} className={pageText.sectionTitle}>
            {device.number !== null ? `No. ${device.number} · ` : ''}
            {device.label || 'NoName'} <span className={styles.serial}>{device.serial}</span>
          </h2>
          <p className={styles.site}>{siteLine(device.site)}</p>
        </div>
        <Button variant="secondary" onClick={() => close()}>
          Back to the list
        </Button>
      </div>
      {needs.length ? (
        <NeedsList items={needs} label="Needs" />
      ) : (
        <p className={pageText.meta}>Nothing needs doing on this device now.</p>
      )}
      {planned ? <p className={pageText.meta}>On today&apos;s plan: {planned.reasons.join('; ') || 'a top-up'}.</p> : null}
      <PumpTable device={device} />

      <fieldset className={styles.actionGrid}>
        <legend className={styles.legend}>What was done</legend>
        {pumps.map((p) => (
          <Button
            key={p.pump}
            variant={refill[p.pump] ? 'primary' : 'secondary'}
            aria-pressed={Boolean(refill[p.pump])}
            onClick={() => toggleRefill(p.pump, p.pump_type as Fluid)}
          >
            Refill {side(p.pump)} · {p.pump_type}
          </Button>
        ))}
        <Button variant={battery ? 'primary' : 'secondary'} aria-pressed={battery} onClick={() => setBattery((b) => !b)}>
          Battery replaced
        </Button>
        <Button variant={repaired ? 'primary' : 'secondary'} aria-pressed={repaired} onClick={() => setRepaired((b) => !b)}>
          Repaired
        </Button>
      </fieldset>

      {pumps
        .filter((p) => refill[p.pump])
        .map((p) => (
          <BatchChoice
            key={p.pump}
            pump={p.pump}
            fluid={p.pump_type as Fluid}
            today={today}
            value={refill[p.pump]!}
            plannedBatch={planned?.refill.find((r) => r.pump === p.pump)?.batchNumber ?? null}
            onChange={(v) => setRefill((r) => ({ ...r, [p.pump]: v }))}
          />
        ))}

      {repaired ? (
        <>
          <label className={styles.legend} htmlFor={noteId}>
            What was repaired
          </label>
          <textarea
            id={noteId}
            className={styles.note}
            value={note}
            maxLength={1000}
            rows={3}
            required
            onChange={(e) => setNote(e.target.value)}
          />
        </>
      ) : null}

      <div className={styles.photoRow}>
        <label className={styles.photoButton}>
          {photo ? 'Replace the photo' : 'Add a photo (optional)'}
          <input type="file" accept="image/*" capture="environment" onChange={(e) => void photoChosen(e)} />
        </label>
        {photo ? (
          <>
            <span className={pageText.meta} data-testid="photo-size">
              Photo {photo.width} x {photo.height}, {(photo.bytes / 1024).toFixed(0)} kB (resized on this phone)
            </span>
            <Button variant="secondary" onClick={() => setPhoto(null)}>
              Remove the photo
            </Button>
          </>
        ) : null}
        {photoState ? (
          <span role="status" className={pageText.meta}>
            {photoState}
          </span>
        ) : null}
      </div>

      {error ? (
        <p role="alert" className={pageText.error}>
          {error}
        </p>
      ) : null}
      <p className={pageText.meta}>
        {crew ? `Recorded for crew ${crew.name} (declared on this phone).` : 'No crew chosen: the record names none.'}
      </p>
      <div className={styles.saveRow}>
        <Button onClick={save} loading={pending} disabled={!ready}>
          Save
        </Button>
        {!chosen ? <span className={pageText.meta}>Choose what was done.</span> : null}
        {chosen && refills.some(([, r]) => !r.confirmed) ? (
          <span className={pageText.meta}>Confirm the batch of each refill.</span>
        ) : null}
        {repaired && !note.trim() ? <span className={pageText.meta}>Say what was repaired.</span> : null}
      </div>
    </section>
  );
}

/** A refill's batch: the default chosen, the usable ones first to expire first, the unusable with the reason. */
function BatchChoice({
  pump,
  fluid,
  today,
  value,
  plannedBatch,
  onChange,
}: {
  pump: Pump;
  fluid: Fluid;
  today: string;
  value: { batch: string | null; confirmed: boolean };
  plannedBatch: string | null;
  onChange: (v: { batch: string | null; confirmed: boolean }) => void;
}) {
  const stock = useUnit($stock);
  const name = useId();
  const batches = batchesInFefoOrder(stock, fluid).map((b) => ({ ...b, refusal: batchRefusal(b, today) }));
  const usable = batches.filter((b) => !b.refusal && b.remainLitres > 0);
  const unusable = batches.filter((b) => b.refusal);
  const plannedRefusal = plannedBatch ? batches.find((b) => b.batchNo === plannedBatch)?.refusal : null;
  if (value.confirmed)
    return (
      <p className={styles.confirmed} data-testid={`batch-confirmed-${pump}`}>
        {Side(pump)} pump: batch {value.batch}
        <Button variant="secondary" onClick={() => onChange({ ...value, confirmed: false })}>
          Change the batch
        </Button>
      </p>
    );
  return (
    <fieldset className={styles.batches} data-testid={`batch-choice-${pump}`}>
      <legend className={styles.legend}>
        Batch poured into the {side(pump)} pump ({fluid.toLowerCase()})
      </legend>
      {plannedRefusal ? (
        <p role="alert" className={pageText.error}>
          The plan&apos;s batch cannot be used: {plannedRefusal}
        </p>
      ) : null}
      {usable.length === 0 ? (
        <p role="alert" className={pageText.error}>
          No usable batch of {fluid.toLowerCase()} is on record: add one in the portal.
        </p>
      ) : null}
      {usable.map((b) => (
        <label key={b.batchNo} className={styles.check}>
          <input
            type="radio"
            name={name}
            checked={value.batch === b.batchNo}
            onChange={() => onChange({ batch: b.batchNo, confirmed: false })}
          />
          <span>
            {b.batchNo} · expires {b.expireDate.slice(0, 10)} · {b.remainLitres.toFixed(1)} L left
            {b.batchNo === plannedBatch ? ' · the plan’s pick' : ''}
          </span>
        </label>
      ))}
      {unusable.map((b) => (
        <label key={b.batchNo} className={[styles.check, styles.refusedBatch].join(' ')}>
          <input type="radio" name={name} disabled aria-describedby={`${name}-${b.batchNo}`} />
          <span>
            {b.batchNo} · <span id={`${name}-${b.batchNo}`}>{b.refusal}</span>
          </span>
        </label>
      ))}
      <Button onClick={() => onChange({ ...value, confirmed: true })} disabled={!value.batch}>
        {value.batch ? `Use batch ${value.batch}` : 'Choose a batch'}
      </Button>
    </fieldset>
  );
}
