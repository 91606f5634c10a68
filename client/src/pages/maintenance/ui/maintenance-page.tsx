import { type MaintenanceDevice, plural, pluralWord } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { actionsText, needsOf, siteLine, type OutboxEntry } from '../../../entities/maintenance';
import { pageZone, siteTime } from '../../../shared/lib';
import { Button, PageFrame, pageText, PasswordField, ResultPopup } from '../../../shared/ui';
import {
  $allDevices,
  $credential,
  $crew,
  $crewPlan,
  $devices,
  $loadedAt,
  $loadError,
  $lookupError,
  $plansError,
  $recordSerial,
  $refused,
  $warned,
  $savedAt,
  $status,
  $waiting,
  codeEntered,
  lookupDismissed,
  lookupDeviceFx,
  networkReturned,
  entryDismissed,
  credentialEntered,
  credentialForgotten,
  pageMounted,
  recordOpened,
  recordPopup,
  refreshClicked,
} from '../model';
import { CrewPicker, DayPlan } from './day-plan';
import { DeviceScreen } from './device-screen';
import { NeedsList, PumpTable } from './device-parts';
import { ScanDialog } from './scan-dialog';
import { $updateReady, reloadClicked } from '../pwa';
import styles from './maintenance-page.module.css';

/** /maintenance: the technician's list (spec section 2), on the maintenance credential, not a user session. */
export function MaintenancePage() {
  const [credential, devices, loadedAt, status, mounted, refresh, forget] = useUnit([
    $credential,
    $devices,
    $loadedAt,
    $status,
    pageMounted,
    refreshClicked,
    credentialForgotten,
  ]);
  const netBack = useUnit(networkReturned);
  useEffect(() => {
    mounted();
    document.title = 'Maintenance';
  }, [mounted]);
  // Records waiting go when the signal returns, without a tap: the browser's 'online', and a retry each 30 s
  // (a phone may be "online" to a mast that carries nothing).
  useEffect(() => {
    const retry = () => netBack();
    window.addEventListener('online', retry);
    const timer = window.setInterval(retry, 30_000);
    return () => {
      window.removeEventListener('online', retry);
      window.clearInterval(timer);
    };
  }, [netBack]);

  // Updated in the page's one zone: the sites' when they share one, else UTC, named either way (never the
  // technician's own zone beside the sites' visit times).
  const lead = `Devices in maintenance or needing a visit, the soonest to run dry first.${loadedAt ? ` Updated ${siteTime(loadedAt.toISOString(), pageZone(devices.map((d) => d.site.timezone_id)))}.` : ''}`;
  const actions = credential ? (
    <>
      <Button variant="secondary" onClick={() => refresh()} loading={status === 'loading'}>
        Refresh
      </Button>
      <Button variant="secondary" onClick={() => forget()}>
        Close maintenance access
      </Button>
    </>
  ) : null;
  return (
    <PageFrame title="Maintenance" lead={lead} actions={actions}>
      {/* The form stays while a credential is checked (its Open button spinning), so a refused one can be corrected. */}
      <UpdateBanner />
      <Outbox />
      <main>{credential ? <FieldApp /> : <CredentialForm />}</main>
      <RecordPopup />
    </PageFrame>
  );
}

function CredentialForm() {
  const [status, error, enter] = useUnit([$status, $loadError, credentialEntered]);
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    enter(value);
  };
  return (
    <form className={styles.credential} onSubmit={submit} aria-labelledby="maintenance-access">
      <h2 id="maintenance-access" className={pageText.sectionTitle}>
        Technician access
      </h2>
      <p className={pageText.meta}>Maintenance access is configured on the server.</p>
      <p className={pageText.meta}>
        Enter the maintenance credential, or open the maintenance link a distributor gave you. It is kept in this tab only.
      </p>
      <PasswordField
        label="Maintenance credential"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        autoComplete="off"
        required
      />
      {error ? (
        <p role="alert" className={pageText.error}>
          {error}
        </p>
      ) : null}
      <Button type="submit" loading={status === 'loading'} disabled={!value.trim()}>
        Open
      </Button>
    </form>
  );
}

/** After the credential: find a device (scan, type), the crew, then the open device, the day's plan or the list. */
function FieldApp() {
  const [serial, devices, crew, crewPlan, plansError] = useUnit([$recordSerial, $allDevices, $crew, $crewPlan, $plansError]);
  const open = serial ? devices.find((d) => d.serial === serial) : undefined;
  if (open) return <DeviceScreen key={open.serial} device={open} />;
  return (
    <>
      <FindDevice />
      <CrewPicker />
      {plansError ? (
        <p role="alert" className={pageText.error}>
          {plansError}
        </p>
      ) : null}
      {crewPlan ? (
        <DayPlan plan={crewPlan} />
      ) : (
        <>
          <p className={pageText.meta} data-testid="no-plan">
            {crew
              ? `No published plan for ${crew.name} today: the devices needing a visit.`
              : 'Choose your crew to see its plan of the day. Until then: the devices needing a visit.'}
          </p>
          <DeviceList />
        </>
      )}
    </>
  );
}

/** Scan a label (the camera) or type the serial printed under it: either opens that device. */
function FindDevice() {
  const [lookupError, looking, enter, dismiss] = useUnit([$lookupError, lookupDeviceFx.pending, codeEntered, lookupDismissed]);
  const [scanning, setScanning] = useState(false);
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const onCode = useCallback(
    (text: string) => {
      setScanning(false);
      enter(text);
    },
    [enter],
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim()) enter(typed);
  };
  return (
    <section aria-label="Find a device" className={styles.find}>
      <Button onClick={() => setScanning(true)} className={styles.scanButton}>
        Scan
      </Button>
      <form onSubmit={submit} className={styles.typeForm}>
        <label htmlFor={inputId} className={styles.legend}>
          Or type the serial
        </label>
        <input
          id={inputId}
          className={styles.select}
          value={typed}
          autoComplete="off"
          autoCapitalize="characters"
          maxLength={64}
          onChange={(e) => {
            setTyped(e.target.value);
            if (lookupError) dismiss();
          }}
        />
        <Button type="submit" variant="secondary" disabled={!typed.trim()} loading={looking}>
          Open
        </Button>
      </form>
      {lookupError ? (
        <p role="alert" className={pageText.error} data-testid="lookup-error">
          {lookupError}
        </p>
      ) : null}
      <ScanDialog open={scanning} onClose={() => setScanning(false)} onCode={onCode} />
    </section>
  );
}

function DeviceList() {
  const [devices, status, error, refresh] = useUnit([$devices, $status, $loadError, refreshClicked]);
  return (
    <section aria-labelledby="maintenance-list">
      <h2 id="maintenance-list" className={pageText.sectionTitle}>
        {plural(devices.length, 'device')} {pluralWord(devices.length, 'needs', 'need')} a visit
      </h2>
      <p className={pageText.meta}>
        Runs out: each pump's days until empty from that device's own dispensing by hour of the week over the last 4 weeks (fewer
        for a newer device, as stated); 'not enough data' without a day of dispensing.
      </p>
      {status === 'failed' && error ? (
        <p role="alert" className={pageText.error}>
          {error}{' '}
          <Button variant="secondary" onClick={() => refresh()}>
            Try again
          </Button>
        </p>
      ) : null}
      {devices.length === 0 && status === 'ready' ? <p className={pageText.empty}>No device needs maintenance now.</p> : null}
      <ol className={styles.list}>
        {devices.map((d) => (
          <DeviceCard key={d.serial} device={d} />
        ))}
      </ol>
    </section>
  );
}

function DeviceCard({ device }: { device: MaintenanceDevice }) {
  const open = useUnit(recordOpened);
  const titleId = useId();
  const needs = needsOf(device);
  const zone = device.site.timezone_id ?? 'UTC';
  return (
    <li className={styles.card} aria-labelledby={titleId} data-testid="maintenance-device" data-serial={device.serial}>
      <div className={styles.cardHead}>
        <div>
          <h3 id={titleId} className={styles.cardTitle}>
            {device.number !== null ? `No. ${device.number} · ` : ''}
            {device.label || 'NoName'} <span className={styles.serial}>{device.serial}</span>
          </h3>
          <p className={styles.site}>{siteLine(device.site)}</p>
        </div>
        <Button
          variant="secondary"
          onClick={() => open(device.serial)}
          aria-label={`Record work on ${device.label || device.serial}`}
        >
          Record work
        </Button>
      </div>
      <NeedsList items={needs} label="Needs" />
      <PumpTable device={device} />
      <p className={pageText.meta}>
        Battery {device.battery_percent === null ? 'unknown' : `${Math.round(device.battery_percent)} %`} ·{' '}
        {device.is_online ? 'Online' : 'Offline'}
        {device.last_record
          ? ` · Last visit ${siteTime(device.last_record.performed_at, zone)}: ${actionsText(device.last_record.actions)}`
          : ''}
      </p>
    </li>
  );
}

function RecordPopup() {
  const [result, close] = useUnit([recordPopup.$result, recordPopup.closed]);
  return <ResultPopup result={result} onClose={() => close()} testId="maintenance-record-result" />;
}

/** A new version of the field app waits: it loads on the technician's Reload, never in the middle of a record. */
function UpdateBanner() {
  const [ready, formSerial, reload] = useUnit([$updateReady, $recordSerial, reloadClicked]);
  if (!ready) return null;
  const busy = formSerial !== null;
  return (
    <p role="status" className={styles.update} data-testid="update-ready">
      A new version of the app is ready. {busy ? 'Save or cancel the record first, then reload.' : null}
      <Button variant="secondary" onClick={() => reload()} disabled={busy}>
        Reload
      </Button>
    </p>
  );
}

/**
 * The records on the phone: how many wait to be sent (always shown); each the server refused, with its
 * reason, and each it stored with a warning (a batch recalled while the phone had no signal), in the
 * server's words, until the technician has read it (never dropped silently).
 */
function Outbox() {
  const [waiting, refused, warned, savedAt, devices] = useUnit([$waiting, $refused, $warned, $savedAt, $devices]);
  return (
    <section aria-label="Records on this phone" className={styles.outbox}>
      <p role="status" data-testid="waiting-count" className={waiting ? styles.waiting : styles.allSent}>
        {waiting === 0
          ? 'Every record is sent.'
          : `${waiting} ${waiting === 1 ? 'record waits' : 'records wait'} to be sent: they go when the signal returns.`}
      </p>
      {savedAt ? (
        <p className={pageText.meta}>
          No signal: the list as this phone last had it ({siteTime(savedAt, pageZone(devices.map((d) => d.site.timezone_id)))}).
        </p>
      ) : null}
      <Notices entries={refused} kind="refused" title="Not stored: the server refused" />
      <Notices entries={warned} kind="warned" title="Stored, with a warning" />
    </section>
  );
}

/** Records the server refused, or stored with warnings: each with the server's words and a Dismiss. */
function Notices({ entries, kind, title }: { entries: OutboxEntry[]; kind: 'refused' | 'warned'; title: string }) {
  const dismiss = useUnit(entryDismissed);
  const titleId = useId();
  if (!entries.length) return null;
  return (
    <div role="alert" className={kind === 'refused' ? styles.refused : styles.warned}>
      <p id={titleId} className={styles.noticeTitle}>
        {title}
      </p>
      <ul aria-labelledby={titleId}>
        {entries.map((e) => (
          <li key={e.seq} data-testid={`${kind}-record`}>
            <span>
              <b>{e.label || e.serial}</b> ({e.serial}): {e.reason}
            </span>
            <Button
              variant="secondary"
              onClick={() => dismiss(e.seq!)}
              aria-label={`Dismiss the ${kind === 'refused' ? 'refused record' : 'warning'} of ${e.label || e.serial}`}
            >
              Dismiss
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
