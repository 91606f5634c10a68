import { mlPerShotForMode, PUMP_MODE_TSP, supportsRightPump, TIMER_MAX_MINUTES, TIMER_MIN_MINUTES } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useId, useState } from 'react';
import { Card, CardTitle, SectionTitle, Spinner } from '../../../shared/ui';
import { saveTimerFx } from '../../../features/registration-setup';
import { wholeNumberProblem } from '../lib/panel-lib';
import type { PanelDevice } from '../model';
import { $pumpSetting, $pumpSettingStatus, $timerForm, pumpSettingChanged, timerChanged } from '../setup.model';
import sectionStyles from './panel-section.module.css';
import styles from './management-section.module.css';

const TSP_TEXT = ['1/4', '1/2', '3/4', '1', '1 1/4', '1 1/2', '1 3/4', '2'];

/** Device Management: Pump Setup and Registration Setup (spec section 2). */
export function ManagementSection({ device }: { device: PanelDevice }) {
  return (
    <div className={sectionStyles.sectionGrid}>
      <PumpSetup device={device} />
      <RegistrationSetup />
    </div>
  );
}

function PumpSetup({ device }: { device: PanelDevice }) {
  const [setting, status, update] = useUnit([$pumpSetting, $pumpSettingStatus, pumpSettingChanged]);
  if (status === 'failed') return <p className={sectionStyles.empty}>The pump setting could not be loaded.</p>;
  if (!setting)
    return (
      <p className={sectionStyles.empty}>
        <Spinner size={16} /> Loading ...
      </p>
    );
  const pumps = [
    {
      key: 'left',
      label: 'Left pump',
      type: device.left_pump_type,
      mode: setting.pump_mode ?? 2,
      apply: (m: number) => update({ pump_mode: m, ml_per_shot: mlPerShotForMode(m) }),
    },
    ...(supportsRightPump(device)
      ? [
          {
            key: 'right',
            label: 'Right pump',
            type: device.right_pump_type,
            mode: setting.pump_mode2 ?? 2,
            apply: (m: number) => update({ pump_mode2: m, ml_per_shot2: mlPerShotForMode(m) }),
          },
        ]
      : []),
  ];
  return (
    <Card aria-labelledby="pump-title">
      <CardTitle id="pump-title">Pump Setup</CardTitle>
      {pumps.map((p) => (
        <label key={p.key} className={styles.slider}>
          <span>
            {p.label} ({p.type === 'Unspecified' ? 'NONE' : p.type}): <strong>mode {p.mode}</strong>, {TSP_TEXT[p.mode - 1]} tsp
            per shot
          </span>
          <input
            type="range"
            min={1}
            max={PUMP_MODE_TSP.length}
            step={1}
            value={p.mode}
            onChange={(e) => p.apply(Number(e.target.value))}
            aria-valuetext={`mode ${p.mode}, ${TSP_TEXT[p.mode - 1]} tsp`}
          />
        </label>
      ))}
      <SectionTitle>Anti vandalism</SectionTitle>
      <div className={sectionStyles.formRow}>
        <NumberSetting
          label="Max shots"
          min={1}
          max={100}
          value={setting.vandalism_max_shots}
          onSave={(n) => update({ vandalism_max_shots: n })}
        />
        <NumberSetting
          label="Interval (s)"
          min={1}
          max={3600}
          value={setting.vandalism_interval}
          onSave={(n) => update({ vandalism_interval: n })}
        />
      </div>
    </Card>
  );
}

/**
 * A whole-number setting saved as it is typed. What cannot be saved (cleared, partial, out of range) stays
 * in the field with the reason under it and is not sent; the saved value comes back when the field leaves
 * focus. Before, a cleared field was read as 0, clamped to the minimum and saved without a word.
 */
function NumberSetting({
  label,
  min,
  max,
  value,
  onSave,
}: {
  label: string;
  min: number;
  max: number;
  value: number;
  onSave: (n: number) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const problemId = useId();
  const problem = draft === null ? null : wholeNumberProblem(label, draft, min, max);
  return (
    <label className={sectionStyles.field}>
      <span>{label}</span>
      <input
        type="number"
        min={min}
        max={max}
        value={draft ?? value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? problemId : undefined}
        onChange={(e) => {
          const raw = e.target.value;
          if (wholeNumberProblem(label, raw, min, max)) return setDraft(raw);
          setDraft(null);
          onSave(Number(raw));
        }}
        onBlur={() => setDraft(null)}
      />
      {problem ? (
        <span id={problemId} role="alert" className={sectionStyles.fieldProblem}>
          {problem}
        </span>
      ) : null}
    </label>
  );
}

function RegistrationSetup() {
  const [form, saving, set] = useUnit([$timerForm, saveTimerFx.pending, timerChanged]);
  const { powerOff, wakeUp } = form;
  return (
    <Card aria-labelledby="timer-title">
      <CardTitle id="timer-title">Registration Setup {saving ? <Spinner size={14} /> : null}</CardTitle>
      <p className={sectionStyles.hint}>
        The device sleeps and wakes on this schedule; changes reach it at its next wake-up. Timers go from {TIMER_MIN_MINUTES} to{' '}
        {TIMER_MAX_MINUTES} min.
      </p>
      <div className={sectionStyles.formRow}>
        <NumberSetting
          label="Power off after (min)"
          min={TIMER_MIN_MINUTES}
          max={TIMER_MAX_MINUTES}
          value={powerOff}
          onSave={(n) => set({ powerOff: n, wakeUp })}
        />
        <NumberSetting
          label="Wake up after (min)"
          min={TIMER_MIN_MINUTES}
          max={TIMER_MAX_MINUTES}
          value={wakeUp}
          onSave={(n) => set({ powerOff, wakeUp: n })}
        />
      </div>
    </Card>
  );
}
