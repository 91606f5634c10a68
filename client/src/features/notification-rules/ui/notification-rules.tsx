import { ALERT_CONDITIONS, conditionText, type Channel } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect, useId, useMemo, type ReactNode } from 'react';
import { Button, FieldError, invalidProps, LinkButton, Segmented, SelectField, StateMessage } from '../../../shared/ui';
import {
  $allowed,
  $draft,
  $errors,
  $members,
  $pushAnswer,
  $pushPending,
  $saveAnswer,
  $saving,
  $scopeOptions,
  $status,
  escalationChanged,
  pushClicked,
  ruleAdded,
  ruleChanged,
  ruleRemoved,
  rulesShown,
  saveClicked,
  type Escalation,
  type Rule,
} from '../model';
import styles from './notification-rules.module.css';

const CHANNEL_LABEL: Record<Channel, string> = { inApp: 'In-app', email: 'Email', sms: 'SMS', push: 'Web Push' };
const CHANNELS = Object.keys(CHANNEL_LABEL) as Channel[];
const SCOPE_LABEL = { all: 'All my devices', brand: 'A brand', county: 'A county', site: 'A site' } as const;

/** The browser's zone: quiet hours start in it, and say so. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const zones = () => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [browserZone()];
  }
};

/** The first message among a rule's fields under a path prefix (`rules[0].quietHours` covers its from, to and zone). */
function errorAt(errors: Record<string, string>, prefix: string): string | undefined {
  if (errors[prefix]) return errors[prefix];
  const key = Object.keys(errors).find((k) => k.startsWith(`${prefix}.`) || k.startsWith(`${prefix}[`));
  return key ? errors[key] : undefined;
}

/** Notification rules (every user) and the escalation policy (distributors), in Account Settings. */
export function NotificationRules() {
  const [show, status, draft, saving, answer, save, add] = useUnit([
    rulesShown,
    $status,
    $draft,
    $saving,
    $saveAnswer,
    saveClicked,
    ruleAdded,
  ]);
  useEffect(() => show(), [show]);
  return (
    <section className={styles.section} aria-labelledby="notification-rules-title" data-testid="notification-rules">
      <h3 id="notification-rules-title" className={styles.heading}>
        Notifications
      </h3>
      {status === 'loading' ? (
        <StateMessage status="loading">Loading your notification rules…</StateMessage>
      ) : status === 'failed' ? (
        <StateMessage status="failed" onRetry={() => show()}>
          Your notification rules could not be loaded.
        </StateMessage>
      ) : (
        <>
          <p className={styles.hint}>
            Which incidents reach you, where, and how. Without a rule you hear of every incident in-app.
          </p>
          {draft.rules.map((rule, index) => (
            <RuleEditor key={index} index={index} rule={rule} />
          ))}
          <div className={styles.row}>
            <Button variant="secondary" onClick={() => add()}>
              Add rule
            </Button>
          </div>
          {draft.escalation ? <EscalationEditor policy={draft.escalation} /> : null}
          <div className={styles.row}>
            <Button onClick={() => save()} loading={saving}>
              Save notifications
            </Button>
            <p role="status" className={answer ? (answer.ok ? styles.ok : styles.failed) : ''} data-testid="rules-answer">
              {answer?.text ?? ''}
            </p>
          </div>
          <PushSwitch />
        </>
      )}
    </section>
  );
}

function RuleEditor({ index, rule }: { index: number; rule: Rule }) {
  const [errors, options, allowed, change, remove] = useUnit([$errors, $scopeOptions, $allowed, ruleChanged, ruleRemoved]);
  const set = (patch: Partial<Rule>) => change({ index, rule: { ...rule, ...patch } as Rule });
  const path = `rules[${index}]`;
  const legendId = useId();
  const channelsErrorId = useId();
  const quietErrorId = useId();
  const channelsError = errorAt(errors, `${path}.channels`);
  const quietError = errorAt(errors, `${path}.quietHours`);
  const zoneList = useMemo(zones, []);
  const scopeList = rule.scope.type === 'all' ? [] : options[rule.scope.type];
  return (
    <fieldset className={styles.rule} aria-labelledby={legendId} data-testid="notification-rule">
      <legend id={legendId} className={styles.legend}>
        Rule {index + 1}
      </legend>
      <div className={styles.grid}>
        <SelectField
          label="Condition"
          value={rule.condition}
          error={errorAt(errors, `${path}.condition`)}
          onChange={(e) => set({ condition: e.target.value as Rule['condition'] })}
        >
          <option value="ANY">Any condition</option>
          {ALERT_CONDITIONS.map((c) => (
            <option key={c} value={c}>
              {conditionText(c)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Scope"
          value={rule.scope.type}
          onChange={(e) => {
            const type = e.target.value as Rule['scope']['type'];
            if (type === 'all') set({ scope: { type: 'all' } });
            else set({ scope: { type, id: options[type][0]?.id ?? 0 } });
          }}
          error={rule.scope.type === 'all' ? errorAt(errors, `${path}.scope`) : undefined}
        >
          {Object.entries(SCOPE_LABEL).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        {rule.scope.type !== 'all' ? (
          <SelectField
            label={SCOPE_LABEL[rule.scope.type].replace(/^A /, '').replace(/^./, (c) => c.toUpperCase())}
            value={String(rule.scope.id)}
            error={errorAt(errors, `${path}.scope`)}
            onChange={(e) => set({ scope: { type: rule.scope.type, id: Number(e.target.value) } as Rule['scope'] })}
          >
            {scopeList.length === 0 ? <option value="0">None available</option> : null}
            {scopeList.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>
      <Group label="Channels" errorId={channelsErrorId} error={channelsError}>
        {CHANNELS.map((channel) => {
          const note =
            channel === 'email' && !allowed.email
              ? 'your Email switch is off'
              : channel === 'sms' && !allowed.sms
                ? 'needs the Phone switch and a phone number'
                : channel === 'push' && !allowed.push
                  ? 'not configured on this server'
                  : null;
          return (
            <label key={channel} className={styles.check}>
              <input
                type="checkbox"
                checked={rule.channels.includes(channel)}
                onChange={(e) =>
                  set({
                    channels: e.target.checked ? [...rule.channels, channel] : rule.channels.filter((c) => c !== channel),
                  })
                }
                {...invalidProps(channelsErrorId, channelsError)}
              />
              {CHANNEL_LABEL[channel]}
              {note ? <span className={styles.note}> ({note})</span> : null}
            </label>
          );
        })}
      </Group>
      <Group label="Quiet hours" errorId={quietErrorId} error={quietError}>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={rule.quietHours !== null}
            onChange={(e) =>
              set({ quietHours: e.target.checked ? { from: '22:00', to: '07:00', timeZone: browserZone() } : null })
            }
          />
          Hold email, SMS and push during quiet hours
        </label>
        {rule.quietHours ? (
          <span className={styles.quiet}>
            <label className={styles.inline}>
              From
              <input
                type="time"
                className={styles.time}
                value={rule.quietHours.from}
                onChange={(e) => set({ quietHours: { ...rule.quietHours!, from: e.target.value } })}
                {...invalidProps(quietErrorId, errorAt(errors, `${path}.quietHours.from`))}
              />
            </label>
            <label className={styles.inline}>
              To
              <input
                type="time"
                className={styles.time}
                value={rule.quietHours.to}
                onChange={(e) => set({ quietHours: { ...rule.quietHours!, to: e.target.value } })}
                {...invalidProps(quietErrorId, errorAt(errors, `${path}.quietHours.to`))}
              />
            </label>
            <label className={styles.inline}>
              Time zone
              <select
                className={styles.zone}
                value={rule.quietHours.timeZone}
                onChange={(e) => set({ quietHours: { ...rule.quietHours!, timeZone: e.target.value } })}
                {...invalidProps(quietErrorId, errorAt(errors, `${path}.quietHours.timeZone`))}
              >
                {(zoneList.includes(rule.quietHours.timeZone) ? zoneList : [rule.quietHours.timeZone, ...zoneList]).map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </select>
            </label>
          </span>
        ) : null}
      </Group>
      <div className={styles.row}>
        <Segmented
          label={`Delivery of rule ${index + 1}`}
          options={[
            { value: 'immediate', label: 'Immediately' },
            { value: 'digest', label: 'Daily digest (08:00)' },
          ]}
          value={rule.digest ? 'digest' : 'immediate'}
          onChange={(v) => set({ digest: v === 'digest' })}
        />
        <LinkButton onClick={() => remove(index)}>Remove rule {index + 1}</LinkButton>
      </div>
    </fieldset>
  );
}

/** A labelled group of controls with one message under it. */
function Group({
  label,
  errorId,
  error,
  children,
}: {
  label: string;
  errorId: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className={styles.group}>
      <span id={id} className={styles.groupLabel}>
        {label}
      </span>
      <div className={styles.checks}>{children}</div>
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

function EscalationEditor({ policy }: { policy: Escalation }) {
  const [errors, members, change] = useUnit([$errors, $members, escalationChanged]);
  const set = (patch: Partial<Escalation>) => change({ ...policy, ...patch });
  const afterId = useId();
  const afterErr = useId();
  const repeatId = useId();
  const repeatErr = useId();
  const afterError = errorAt(errors, 'escalation.afterMinutes');
  const repeatError = errorAt(errors, 'escalation.repeatMinutes');
  return (
    <fieldset className={styles.rule} data-testid="escalation-policy">
      <legend className={styles.legend}>Escalation policy (your organisation)</legend>
      <p className={styles.hint}>
        When nobody acknowledges an incident, notify the next person in the chain, again and again until someone does.
      </p>
      <div className={styles.grid}>
        <div className={styles.field}>
          <label htmlFor={afterId} className={styles.groupLabel}>
            Escalate after (minutes)
          </label>
          <input
            id={afterId}
            type="number"
            min={1}
            className={styles.number}
            value={policy.afterMinutes}
            onChange={(e) => set({ afterMinutes: Number(e.target.value) })}
            {...invalidProps(afterErr, afterError)}
          />
          <FieldError id={afterErr}>{afterError}</FieldError>
        </div>
        <div className={styles.field}>
          <label htmlFor={repeatId} className={styles.groupLabel}>
            Repeat every (minutes)
          </label>
          <input
            id={repeatId}
            type="number"
            min={5}
            className={styles.number}
            value={policy.repeatMinutes}
            onChange={(e) => set({ repeatMinutes: Number(e.target.value) })}
            {...invalidProps(repeatErr, repeatError)}
          />
          <FieldError id={repeatErr}>{repeatError}</FieldError>
        </div>
      </div>
      <ol className={styles.steps}>
        {policy.steps.map((step, i) => (
          <li key={i} className={styles.step}>
            <SelectField
              label={`Step ${i + 1}: who`}
              value={String(step.userId)}
              error={errorAt(errors, `escalation.steps[${i}].userId`) ?? errorAt(errors, `escalation.steps[${i}].channels`)}
              onChange={(e) =>
                set({ steps: policy.steps.map((s, j) => (j === i ? { ...s, userId: Number(e.target.value) } : s)) })
              }
            >
              {members.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </SelectField>
            <div role="group" aria-label={`Step ${i + 1}: channels`} className={styles.checks}>
              {CHANNELS.map((channel) => (
                <label key={channel} className={styles.check}>
                  <input
                    type="checkbox"
                    checked={step.channels.includes(channel)}
                    onChange={(e) =>
                      set({
                        steps: policy.steps.map((s, j) =>
                          j === i
                            ? {
                                ...s,
                                channels: e.target.checked ? [...s.channels, channel] : s.channels.filter((c) => c !== channel),
                              }
                            : s,
                        ),
                      })
                    }
                  />
                  {CHANNEL_LABEL[channel]}
                </label>
              ))}
            </div>
            <LinkButton onClick={() => set({ steps: policy.steps.filter((_, j) => j !== i) })}>Remove step {i + 1}</LinkButton>
          </li>
        ))}
      </ol>
      <div className={styles.row}>
        <Button
          variant="secondary"
          disabled={members.length === 0}
          onClick={() => set({ steps: [...policy.steps, { userId: members[0]?.id ?? 0, channels: ['inApp', 'email'] }] })}
        >
          Add escalation step
        </Button>
      </div>
      <FieldError id={`${afterErr}-policy`}>{errors.escalation}</FieldError>
    </fieldset>
  );
}

function PushSwitch() {
  const [allowed, pending, answer, click] = useUnit([$allowed, $pushPending, $pushAnswer, pushClicked]);
  if (!allowed.push) return null;
  return (
    <div className={styles.row}>
      <Button variant="secondary" onClick={() => click()} loading={pending}>
        Turn on push notifications in this browser
      </Button>
      <p role="status" className={answer ? (answer.ok ? styles.ok : styles.failed) : ''} data-testid="push-answer">
        {answer?.text ?? ''}
      </p>
    </div>
  );
}
