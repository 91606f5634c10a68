import { mlPerShotForMode, PUMP_MODE_TSP, supportsRightPump, TIMER_MAX_MINUTES, TIMER_MIN_MINUTES } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { Card, CardTitle, SectionTitle, Spinner } from '../../../shared/ui';
import { saveTimerFx } from '../../../features/registration-setup';
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
    { key: 'left', label: 'Left pump', type: device.left_pump_type, mode: setting.pump_mode ?? 2, apply: (m: number) => update({ pump_mode: m, ml_per_shot: mlPerShotForMode(m) }) },
    ...(supportsRightPump(device)
      ? [{ key: 'right', label: 'Right pump', type: device.right_pump_type, mode: setting.pump_mode2 ?? 2, apply: (m: number) => update({ pump_mode2: m, ml_per_shot2: mlPerShotForMode(m) }) }]
      : []),
  ];
  return (
    <Card aria-labelledby="pump-title">
      <CardTitle id="pump-title">
        Pump Setup
      </CardTitle>
      {pumps.map((p) => (
        <label key={p.key} className={styles.slider}>
          <span>
            {p.label} ({p.type === 'Unspecified' ? 'NONE' : p.type}): <strong>mode {p.mode}</strong>, {TSP_TEXT[p.mode - 1]} tsp per shot
          </span>
          <input type="range" min={1} max={PUMP_MODE_TSP.length} step={1} value={p.mode} onChange={(e) => p.apply(Number(e.target.value))} aria-valuetext={`mode ${p.mode}, ${TSP_TEXT[p.mode - 1]} tsp`} />
        </label>
      ))}
      <SectionTitle>Anti vandalism</SectionTitle>
      <div className={sectionStyles.formRow}>
        <label className={sectionStyles.field}>
          <span>Max shots</span>
          <input type="number" min={1} max={100} value={setting.vandalism_max_shots} onChange={(e) => update({ vandalism_max_shots: clamp(Number(e.target.value), 1, 100) })} />
        </label>
        <label className={sectionStyles.field}>
          <span>Interval (s)</span>
          <input type="number" min={1} max={3600} value={setting.vandalism_interval} onChange={(e) => update({ vandalism_interval: clamp(Number(e.target.value), 1, 3600) })} />
        </label>
      </div>
    </Card>
  );
}

const clamp = (n: number, min: number, max: number) => (Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : min);

function RegistrationSetup() {
  const [form, saving, set] = useUnit([$timerForm, saveTimerFx.pending, timerChanged]);
  const { powerOff, wakeUp } = form;
  return (
    <Card aria-labelledby="timer-title">
      <CardTitle id="timer-title">
        Registration Setup {saving ? <Spinner size={14} /> : null}
      </CardTitle>
      <p className={sectionStyles.hint}>
        The device sleeps and wakes on this schedule; changes reach it at its next wake-up. Timers go from {TIMER_MIN_MINUTES} to {TIMER_MAX_MINUTES} min.
      </p>
      <div className={sectionStyles.formRow}>
        <label className={sectionStyles.field}>
          <span>Power off after (min)</span>
          <input type="number" min={TIMER_MIN_MINUTES} max={TIMER_MAX_MINUTES} value={powerOff} onChange={(e) => set({ powerOff: clamp(Number(e.target.value), TIMER_MIN_MINUTES, TIMER_MAX_MINUTES), wakeUp })} />
        </label>
        <label className={sectionStyles.field}>
          <span>Wake up after (min)</span>
          <input type="number" min={TIMER_MIN_MINUTES} max={TIMER_MAX_MINUTES} value={wakeUp} onChange={(e) => set({ powerOff, wakeUp: clamp(Number(e.target.value), TIMER_MIN_MINUTES, TIMER_MAX_MINUTES) })} />
        </label>
      </div>
    </Card>
  );
}
