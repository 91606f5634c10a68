import {
  type BatchAnswer,
  batchStateLabel,
  remainingTsp,
  MAINTENANCE_ACTION_TEXT,
  warningText,
  type BatchStatus,
  type MaintenanceAction,
  type MaintenanceDevice,
  type MaintenanceReason,
  type StockBatch,
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

/**
 * The serial a scanned code names. A label's QR code holds the field app's link
 * (`<PUBLIC_URL>/maintenance?device=<serial>`: a phone's own camera opens the app); a code holding just a
 * serial, or a typed serial, is taken as it is. Null for an empty code or a link naming no device.
 */
export function serialFromCode(text: string): string | null {
  const code = text.trim();
  if (/^https?:\/\//i.test(code)) {
    try {
      return new URL(code).searchParams.get('device')?.trim() || null;
    } catch {
      return null;
    }
  }
  return code || null;
}

/**
 * The "Navigate" link of a stop: Google Maps' cross-platform URL (maps.google.com/maps/dir/?api=1), which a
 * phone opens in its maps app (Android and iOS with Google Maps; a browser tab otherwise). A `geo:` URL
 * would open any Android maps app but nothing on iOS.
 */
export const navigateUrl = (at: { lat: number; lng: number }) =>
  `https://www.google.com/maps/dir/?api=1&destination=${at.lat.toFixed(6)},${at.lng.toFixed(6)}&travelmode=driving`;

/** The batches as the shared batch rules read them (a batch's brands: the brands of the devices it feeds). */
export const stockOf = (batches: readonly BatchAnswer[]): StockBatch[] =>
  batches.flatMap((b): StockBatch[] =>
    b.batchType === 1 || b.batchType === 2
      ? [
          {
            batchNo: b.batchNumber,
            fluid: b.batchType === 1 ? 'Sunscreen' : 'Sanitizer',
            brandIds: b.brand_lists.map((x) => x.id),
            expireDate: b.expiryDate,
            remainLitres: b.remain,
            recalled: b.is_recalled,
          },
        ]
      : [],
  );

/** The phone's calendar day (the day's plan is the plan of the day the technician is living). */
export const phoneDay = (at = new Date()) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
