import {
  batchStateLabel,
  remainingTsp,
  MAINTENANCE_ACTION_TEXT,
  warningText,
  type BatchStatus,
  type MaintenanceAction,
  type MaintenanceDevice,
  type MaintenanceReason,
} from '@fleet/shared';

/** Why a device is on the list, in words (warnings come in words through WARNING_TEXT). */
export const REASON_TEXT: Record<MaintenanceReason, string> = {
  in_maintenance: 'In maintenance',
  warning: 'Warnings',
  low_fluid: 'Low fluid',
  low_battery: 'Low battery',
  batch: 'Batch to replace',
  runs_out_soon: 'Runs out within a week',
};

/**
 * What a technician reads on a device's card: its warnings in words, then what the other reasons add
 * (a warning list already says 'Low battery' or 'Left pump fluid low', so those are not repeated).
 */
export function needsOf(device: MaintenanceDevice): string[] {
  const out = device.warning_lists.map(warningText);
  const has = (text: string) => out.some((t) => t.toLowerCase().includes(text));
  if (device.is_maintenance) out.unshift('In maintenance');
  if (device.low_battery && !has('battery')) out.push(`Low battery (${Math.round(device.battery_percent ?? 0)} %)`);
  for (const p of device.pumps) {
    if (p.low_fluid && !has(`${p.pump === 1 ? 'left' : 'right'} pump fluid low`))
      out.push(`${p.pump === 1 ? 'Left' : 'Right'} pump fluid low`);
    if (p.batch && (p.batch.is_recalled || p.batch.status === 'EXPIRED' || p.batch.status === 'ALMOST_EXPIRED')) {
      out.push(
        `Batch ${p.batch.batch_no}: ${batchStateLabel({ status: p.batch.status as BatchStatus, is_recalled: p.batch.is_recalled })}`,
      );
    }
  }
  if (device.reasons.includes('runs_out_soon') && !out.length) out.push(REASON_TEXT.runs_out_soon);
  return [...new Set(out)];
}

export const actionsText = (actions: readonly string[]) =>
  actions.map((a) => MAINTENANCE_ACTION_TEXT[a as MaintenanceAction] ?? a).join(', ');

/** Remaining fluid as the portal shows it everywhere: tsp (spec section 9: 0.2 times the volume value). */
export const remainingText = (volume: number) => `${remainingTsp(volume)} tsp`;

/** A site's name and address, without saying the name twice when the address starts with it. */
export const siteLine = (site: { name: string; address: string }) =>
  site.name && !site.address.startsWith(site.name) ? `${site.name} · ${site.address}` : site.address || site.name;
