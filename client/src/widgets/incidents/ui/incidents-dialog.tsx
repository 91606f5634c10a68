import type { Incident, IncidentState, Severity } from '@fleet/shared';
import { INCIDENT_STATES, SEVERITIES } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { incidentPlace, incidentsZone, SEVERITY_LABEL, STATE_LABEL } from '../../../entities/incident';
import { siteTime } from '../../../shared/lib';
import {
  ArrowLeftIcon,
  Button,
  Dialog,
  FormField,
  formControlClass,
  invalidProps,
  LinkButton,
  Segmented,
  SelectField,
  StateMessage,
} from '../../../shared/ui';
import {
  $answer,
  $busy,
  $commentsAdded,
  $detail,
  $detailStatus,
  $fieldErrors,
  $filter,
  $incidents,
  $listStatus,
  $open,
  $selectedId,
  $sites,
  acknowledgeClicked,
  backToList,
  commentSubmitted,
  incidentsClosed,
  incidentSelected,
  resolveSubmitted,
  retryClicked,
  severityFilterChanged,
  siteFilterChanged,
  stateFilterChanged,
} from '../model';
import styles from './incidents-dialog.module.css';

type StateChoice = IncidentState | 'all';
const STATE_OPTIONS: { value: StateChoice; label: string }[] = [
  ...INCIDENT_STATES.map((s) => ({ value: s as StateChoice, label: STATE_LABEL[s] })),
  { value: 'all', label: 'All' },
];

/** How many devices, and the first few: a carrier outage at a 20-device site is one line, not twenty. */
export function devicesText(serials: readonly string[]): string {
  if (serials.length === 0) return 'No device (account)';
  const shown = serials.slice(0, 3).join(', ');
  return serials.length > 3 ? `${shown} and ${serials.length - 3} more` : shown;
}

/** A site's name and address, the name once (an address often starts with it). */
const siteLine = ({ name, address }: { name: string; address: string }) =>
  !address || address === name ? name : address.startsWith(name) ? address : `${name}, ${address}`;

/** The Incidents view: the list with its filters, or one incident's detail. */
export function IncidentsDialog() {
  const [open, close, selectedId] = useUnit([$open, incidentsClosed, $selectedId]);
  return (
    <Dialog open={open} onClose={close} title="Incidents" width={880} closeOnBackdrop>
      <div data-testid="incidents">{selectedId === null ? <IncidentList /> : <IncidentDetail />}</div>
    </Dialog>
  );
}

function IncidentList() {
  const [filter, incidents, status, sites, retry] = useUnit([$filter, $incidents, $listStatus, $sites, retryClicked]);
  const [onState, onSeverity, onSite, select] = useUnit([
    stateFilterChanged,
    severityFilterChanged,
    siteFilterChanged,
    incidentSelected,
  ]);
  const zone = incidentsZone(incidents);
  return (
    <div className={styles.list}>
      <div className={styles.filters}>
        <Segmented
          label="State"
          className={styles.stateFilter}
          options={STATE_OPTIONS}
          value={filter.state ?? 'all'}
          onChange={(v) => onState(v === 'all' ? null : v)}
        />
        <SelectField
          label="Severity"
          value={filter.severity ?? ''}
          onChange={(e) => onSeverity((e.target.value || null) as Severity | null)}
        >
          <option value="">All severities</option>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_LABEL[s]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Site"
          value={filter.siteId === null ? '' : String(filter.siteId)}
          onChange={(e) => onSite(e.target.value ? Number(e.target.value) : null)}
        >
          <option value="">All my sites</option>
          {[...sites].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </SelectField>
      </div>
      <p className={styles.zone} data-testid="incidents-zone">
        Times in {zone}
      </p>
      {status === 'loading' || status === 'idle' ? (
        <StateMessage status="loading">Loading incidents…</StateMessage>
      ) : status === 'failed' ? (
        <StateMessage status="failed" onRetry={() => retry()}>
          The incidents could not be loaded.
        </StateMessage>
      ) : incidents.length === 0 ? (
        <StateMessage status="empty">No incidents match these filters.</StateMessage>
      ) : (
        <ul className={styles.rows} aria-label="Incidents">
          {incidents.map((i) => (
            <li key={i.id}>
              <button type="button" className={styles.row} onClick={() => select(i.id)} data-testid="incident-row">
                <span className={styles.rowHead}>
                  <SeverityPill severity={i.severity} />
                  <span className={styles.reason}>{i.reason}</span>
                  <span className={styles.state}>{STATE_LABEL[i.state]}</span>
                </span>
                <span className={styles.meta}>
                  <span>{incidentPlace(i)}</span>
                  <span>{devicesText(i.serials)}</span>
                  <span>Opened {siteTime(i.openedAt, zone)}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SeverityPill({ severity }: { severity: Severity }) {
  return <span className={[styles.pill, styles[severity]].join(' ')}>{SEVERITY_LABEL[severity]}</span>;
}

function IncidentDetail() {
  const [incident, status, back, selectedId, reload] = useUnit([
    $detail,
    $detailStatus,
    backToList,
    $selectedId,
    incidentSelected,
  ]);
  return (
    <div className={styles.detail}>
      <LinkButton onClick={() => back()} className={styles.back}>
        <ArrowLeftIcon size={16} /> Back to incidents
      </LinkButton>
      {incident ? (
        <IncidentBody incident={incident} />
      ) : status === 'failed' ? (
        <StateMessage status="failed" onRetry={() => selectedId !== null && reload(selectedId)}>
          This incident could not be loaded.
        </StateMessage>
      ) : (
        <StateMessage status="loading">Loading the incident…</StateMessage>
      )}
    </div>
  );
}

function IncidentBody({ incident }: { incident: Incident }) {
  // Events bound to the tab's scope (main.tsx forks one): called unbound they would reach no store of it.
  const [answer, busy, acknowledge, comment, resolve] = useUnit([
    $answer,
    $busy,
    acknowledgeClicked,
    commentSubmitted,
    resolveSubmitted,
  ]);
  const zone = incidentsZone([incident]);
  const at = (iso: string) => siteTime(iso, zone);
  return (
    <>
      <h3 className={styles.title} data-testid="incident-reason">
        <SeverityPill severity={incident.severity} /> {incident.reason}
      </h3>
      <dl className={styles.facts}>
        <dt>State</dt>
        <dd data-testid="incident-state">
          {STATE_LABEL[incident.state]}
          {incident.state === 'acknowledged' && incident.acknowledgedBy ? ` by ${incident.acknowledgedBy}` : ''}
          {incident.state === 'acknowledged' && incident.acknowledgedAt ? `, ${at(incident.acknowledgedAt)}` : ''}
          {incident.state === 'resolved' && incident.resolvedAt ? `, ${at(incident.resolvedAt)}` : ''}
        </dd>
        <dt>Site</dt>
        <dd>{incident.site ? siteLine(incident.site) : 'Account'}</dd>
        <dt>Devices</dt>
        <dd>{incident.serials.length ? incident.serials.join(', ') : 'No device (account)'}</dd>
        <dt>Opened</dt>
        <dd>{at(incident.openedAt)}</dd>
      </dl>
      <p className={styles.zone}>Times in {zone}</p>
      <div className={styles.actions}>
        {incident.state === 'open' ? (
          <Button onClick={() => acknowledge()} loading={busy && answer?.kind === 'acknowledge'} disabled={busy}>
            Acknowledge
          </Button>
        ) : null}
      </div>
      <p
        role="status"
        className={[
          styles.answer,
          answer?.status === 'failed' ? styles.failed : answer?.status === 'done' ? styles.done : '',
        ].join(' ')}
        data-testid="incident-answer"
      >
        {answer?.text ?? ''}
      </p>
      {incident.state !== 'resolved' ? (
        <NoteForm
          label="Resolution note"
          field="note"
          submitLabel="Resolve"
          onSubmit={(note) => resolve(note)}
          pending={busy && answer?.kind === 'resolve'}
          disabled={busy}
        />
      ) : null}
      <NoteForm
        label="Comment"
        field="text"
        submitLabel="Add comment"
        onSubmit={(text) => comment(text)}
        pending={busy && answer?.kind === 'comment'}
        disabled={busy}
        clearOn="comment"
      />
      <h4 className={styles.timelineTitle}>Timeline</h4>
      <ol className={styles.timeline} data-testid="incident-timeline">
        {incident.timeline.map((entry, index) => (
          <li key={index} className={styles.entry} data-kind={entry.kind}>
            <time dateTime={entry.at} className={styles.entryAt}>
              {at(entry.at)}
            </time>
            <span>{entry.text}</span>
          </li>
        ))}
      </ol>
    </>
  );
}

type NoteFormProps = {
  label: string;
  /** The body's field a 400 names (`note`, `text`): its message is shown under this box. */
  field: string;
  submitLabel: string;
  onSubmit: (value: string) => void;
  pending: boolean;
  disabled: boolean;
  clearOn?: 'comment';
};

function NoteForm({ label, field, submitLabel, onSubmit, pending, disabled, clearOn }: NoteFormProps) {
  const [errors, commentsAdded] = useUnit([$fieldErrors, $commentsAdded]);
  const [value, setValue] = useState('');
  const id = useId();
  const errorId = useId();
  useEffect(() => {
    if (clearOn === 'comment') setValue('');
  }, [commentsAdded, clearOn]);
  const error = errors[field];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(value);
  };
  return (
    <form className={styles.noteForm} onSubmit={submit} noValidate>
      <FormField label={label} htmlFor={id} errorId={errorId} error={error}>
        <textarea
          id={id}
          className={[formControlClass, styles.textarea].join(' ')}
          rows={2}
          maxLength={2000}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          {...invalidProps(errorId, error)}
        />
      </FormField>
      <Button type="submit" variant="secondary" loading={pending} disabled={disabled}>
        {submitLabel}
      </Button>
    </form>
  );
}
