import { addDays, localDateOf, toZonedIso, zonedTimeToInstant } from '../telemetry.ts';
import { roundVolume } from '../volume.ts';
import { pickBatches, type Shortage, type StockBatch } from './batch-choice.ts';
import {
  deviceReasons,
  DUE_MARGIN_DAYS,
  dueCutoff,
  needsBattery,
  reasonsBefore,
  refillNeeds,
  TOP_UP_DAYS,
  type DueDevice,
  type DueReason,
  type Fluid,
} from './due.ts';
import { solveRoutes, type SolverStop } from './solver.ts';
import type { LatLng, TravelTimeSource } from './travel.ts';

/** Service time: 10 minutes a stop (parking, walking in) plus 5 a device. */
export const STOP_SERVICE_MIN = 10;
export const DEVICE_SERVICE_MIN = 5;

export type PlanCrewInput = {
  id: number;
  name: string;
  depot: LatLng & { address: string };
  /** The depot's IANA zone: working hours are read in it. */
  timeZone: string;
  startTime: string;
  endTime: string;
  capacityLitres: number;
  capacityBatteries: number;
};

export type PlanSite = { id: number; name: string; address: string; lat: number; lng: number; timeZone: string };

export type PlanInput = {
  date: string;
  now: Date | number;
  crews: readonly PlanCrewInput[];
  sites: readonly PlanSite[];
  devices: readonly DueDevice[];
  stock: readonly StockBatch[];
  travel: TravelTimeSource;
  /** Days after the plan's date that due work is planned for (default DUE_MARGIN_DAYS, the portal's). */
  marginDays?: number;
  /** A device at a visited site is topped up when due within this many days (default TOP_UP_DAYS). */
  topUpDays?: number;
};

export type PlannedDevice = {
  serial: string;
  reasons: string[];
  /** Topped up because its site is visited anyway (due within TOP_UP_DAYS, not by the margin). */
  topUp: boolean;
  refill: { pump: 1 | 2; fluid: Fluid; litres: number; batchNumber: string | null; replacesBatch: boolean }[];
  battery: 'swap' | null;
  /** The warnings and flags to fix on site (the reasons that are not fluid, battery or batch). */
  fix: string[];
};

export type PlannedStop = {
  order: number;
  site: PlanSite;
  /** Arrival, ISO 8601 in the site's time zone (with its offset). */
  eta: string;
  driveMinutes: number;
  devices: PlannedDevice[];
};

export type PickList = {
  batches: { batchNumber: string; brand: string; fluid: Fluid; litres: number }[];
  litres: number;
  batteries: number;
  shortages: Omit<Shortage, 'brandId'>[];
  warningsToFix: { serial: string; text: string }[];
};

export type CrewPlan = {
  crew: { id: number; name: string; timeZone: string; startTime: string; endTime: string };
  stops: PlannedStop[];
  pickList: PickList;
  totals: {
    stops: number;
    devices: number;
    km: number;
    drivingMinutes: number;
    serviceMinutes: number;
    start: string;
    returnAt: string;
  };
};

export type UnplannedDevice = { serial: string; site: { id: number; name: string }; reasons: string[]; why: string };

export type PlanBody = {
  date: string;
  crews: CrewPlan[];
  unplanned: UnplannedDevice[];
  shortages: Omit<Shortage, 'brandId'>[];
  /** Says why there is nothing to do (no crews chosen, nothing due); null when the plan has work. */
  note: string | null;
  travelSource: string;
};

const MIN = 60_000;
const hm = (t: string) => {
  const [h, m] = t.split(':').map(Number);
  return { h: h!, m: m! };
};

type SiteWork = {
  site: PlanSite;
  due: { d: DueDevice; reasons: DueReason[] }[];
  topUp: { d: DueDevice; reasons: DueReason[] }[];
};

/**
 * The plan of one day, deterministic for the same input: due sites assigned to crews and ordered, ETAs in
 * site time, refills from batches first-expiry-first-out, pick lists with totals, the rest unplanned.
 */
export async function planServiceDay(input: PlanInput): Promise<PlanBody> {
  const { date, crews } = input;
  const nowMs = new Date(input.now).getTime();
  const siteById = new Map(input.sites.map((s) => [s.id, s]));

  // Due and top-up work, per site (sites in id order, devices by serial: the same input, the same plan).
  const work = new Map<number, SiteWork>();
  for (const d of [...input.devices].sort((a, b) => a.serial.localeCompare(b.serial))) {
    const site = siteById.get(d.siteId);
    if (!site) continue;
    const all = deviceReasons(d, nowMs);
    const due = reasonsBefore(all, dueCutoff(date, site.timeZone, input.marginDays ?? DUE_MARGIN_DAYS));
    const soon = reasonsBefore(
      all,
      dueCutoff(date, site.timeZone, Math.max(input.topUpDays ?? TOP_UP_DAYS, input.marginDays ?? 0)),
    );
    if (!soon.length) continue;
    const w = work.get(site.id) ?? { site, due: [], topUp: [] };
    if (due.length) w.due.push({ d, reasons: due });
    else w.topUp.push({ d, reasons: soon });
    work.set(site.id, w);
  }
  const visits = [...work.values()].filter((w) => w.due.length).sort((a, b) => a.site.id - b.site.id);
  const base = { date, shortages: [], travelSource: input.travel.name };
  if (!visits.length)
    return {
      ...base,
      crews: crews.map((c) => emptyCrew(c, date)),
      unplanned: [],
      note: `Nothing is due on ${date}: no device needs a visit by the end of the next day.`,
    };

  const points: LatLng[] = [...crews.map((c) => c.depot), ...visits.map((v) => v.site)];
  const matrix = await input.travel.matrix(points);
  const seconds = (a: number, b: number) => matrix.seconds[a]![b]!;
  const dayStart = crews.map((c) => zonedTimeToInstant(date, c.timeZone, hm(c.startTime).h, hm(c.startTime).m).getTime());
  const dayEnd = crews.map((c) => zonedTimeToInstant(date, c.timeZone, hm(c.endTime).h, hm(c.endTime).m).getTime());

  const stops: SolverStop[] = visits.map((v, i) => {
    const devices = [...v.due, ...v.topUp];
    // Van load is judged at the end of the plan's day: no later ETA needs more than that.
    const endOfDay = zonedTimeToInstant(addDays(date, 1), v.site.timeZone).getTime();
    const litres = devices.reduce(
      (sum, x) => sum + refillNeeds(x.d, x.reasons, nowMs, endOfDay, date).reduce((a, r) => a + r.litres, 0),
      0,
    );
    const earliest = Math.min(...v.due.flatMap((x) => x.reasons.map((r) => r.at)));
    return {
      node: crews.length + i,
      serviceSec: (STOP_SERVICE_MIN + DEVICE_SERVICE_MIN * devices.length) * 60,
      litres,
      batteries: devices.filter((x) => needsBattery(x.reasons)).length,
      // Tier 0: due by the end of the plan's day; tier 1: due within the margin after it.
      tier: earliest < dueCutoff(date, v.site.timeZone, 0) ? 0 : 1,
    };
  });
  const solved = solveRoutes({
    crews: crews.map((c, i) => ({
      node: i,
      availableSec: Math.max(0, (dayEnd[i]! - dayStart[i]!) / 1000),
      capacityLitres: c.capacityLitres,
      capacityBatteries: c.capacityBatteries,
    })),
    stops,
    seconds,
  });

  // ETAs, refills at the ETA, then batches in route order (the first stop takes the first-expiring fluid).
  type Draft = {
    crew: number;
    stop: PlannedStop;
    refills: { device: PlannedDevice; need: ReturnType<typeof refillNeeds>[number]; d: DueDevice }[];
  };
  const drafts: Draft[] = [];
  const routeTimes = solved.routes.map((r) => {
    let t = dayStart[r.crew]!;
    let prev = r.crew;
    r.stops.forEach((s, k) => {
      const node = stops[s]!.node;
      const drive = seconds(prev, node);
      t += drive * 1000;
      const v = visits[s]!;
      const etaDate = localDateOf(t, v.site.timeZone);
      const stop: PlannedStop = {
        order: k + 1,
        site: v.site,
        eta: toZonedIso(Math.round(t / MIN) * MIN, v.site.timeZone),
        driveMinutes: Math.round(drive / 60),
        devices: [],
      };
      const draft: Draft = { crew: r.crew, stop, refills: [] };
      for (const x of [...v.due.map((y) => ({ ...y, topUp: false })), ...v.topUp.map((y) => ({ ...y, topUp: true }))]) {
        const device: PlannedDevice = {
          serial: x.d.serial,
          reasons: x.reasons.map((r) => r.text),
          topUp: x.topUp,
          refill: [],
          battery: needsBattery(x.reasons) ? 'swap' : null,
          fix: x.reasons.filter((r) => r.code === 'warning' || r.code === 'maintenance').map((r) => r.text),
        };
        for (const need of refillNeeds(x.d, x.reasons, nowMs, t, etaDate)) draft.refills.push({ device, need, d: x.d });
        stop.devices.push(device);
      }
      drafts.push(draft);
      t += stops[s]!.serviceSec * 1000;
      prev = node;
    });
    return t + seconds(prev, r.crew) * 1000;
  });
  const flat = drafts.flatMap((dr) => dr.refills);
  const { picks, shortages } = pickBatches(
    flat.map((f) => ({ brandId: f.d.brandId, brandName: f.d.brandName, fluid: f.need.fluid, litres: f.need.litres })),
    input.stock,
    date,
  );
  flat.forEach((f, i) => {
    for (const p of picks[i]!)
      f.device.refill.push({
        pump: f.need.pump,
        fluid: f.need.fluid,
        litres: roundVolume(p.litres, 2),
        batchNumber: p.batchNumber,
        replacesBatch: f.need.replacesBatch,
      });
  });

  const brandOfBatch = new Map<string, string>();
  flat.forEach((f) =>
    f.device.refill.forEach((r) => r.batchNumber && brandOfBatch.set(r.batchNumber, f.d.brandName ?? 'no brand')),
  );
  const brandOfDevice = new Map(flat.map((f) => [f.device.serial, f.d.brandName ?? 'no brand']));
  const crewPlans = crews.map((c, i): CrewPlan => {
    const route = solved.routes[i]!;
    const own = drafts.filter((d) => d.crew === i).map((d) => d.stop);
    if (!own.length) return emptyCrew(c, date);
    const km =
      route.stops.reduce(
        (acc, s, k) => acc + matrix.metres[k === 0 ? i : stops[route.stops[k - 1]!]!.node]![stops[s]!.node]!,
        0,
      ) + matrix.metres[stops[route.stops.at(-1)!]!.node]![i]!;
    return {
      crew: crewHead(c),
      stops: own,
      pickList: pickList(own, brandOfBatch, brandOfDevice),
      totals: {
        stops: own.length,
        devices: own.reduce((a, s) => a + s.devices.length, 0),
        km: roundVolume(km / 1000, 1),
        drivingMinutes: Math.round(route.driveSec / 60),
        serviceMinutes: Math.round(route.serviceSec / 60),
        start: toZonedIso(dayStart[i]!, c.timeZone),
        returnAt: toZonedIso(Math.round(routeTimes[i]! / MIN) * MIN, c.timeZone),
      },
    };
  });
  const unplanned = solved.unplanned.flatMap(({ stop, why }) =>
    visits[stop]!.due.map((x) => ({
      serial: x.d.serial,
      site: { id: visits[stop]!.site.id, name: visits[stop]!.site.name },
      reasons: x.reasons.map((r) => r.text),
      why,
    })),
  );
  return {
    ...base,
    crews: crewPlans,
    unplanned,
    shortages: shortages.map(({ brandId: _, ...s }) => ({ ...s, litres: roundVolume(s.litres, 2) })),
    note: crews.length
      ? null
      : `No crews were chosen: ${visits.length} due ${visits.length === 1 ? 'site is' : 'sites are'} left unplanned.`,
  };
}

const crewHead = (c: PlanCrewInput) => ({
  id: c.id,
  name: c.name,
  timeZone: c.timeZone,
  startTime: c.startTime,
  endTime: c.endTime,
});

function emptyCrew(c: PlanCrewInput, date: string): CrewPlan {
  const start = toZonedIso(zonedTimeToInstant(date, c.timeZone, hm(c.startTime).h, hm(c.startTime).m), c.timeZone);
  return {
    crew: crewHead(c),
    stops: [],
    pickList: { batches: [], litres: 0, batteries: 0, shortages: [], warningsToFix: [] },
    totals: { stops: 0, devices: 0, km: 0, drivingMinutes: 0, serviceMinutes: 0, start, returnAt: start },
  };
}

/** What goes in the van: litres per batch, batteries, what no batch covers, and the warnings to fix. */
function pickList(
  stops: readonly PlannedStop[],
  brandOfBatch: ReadonlyMap<string, string>,
  brandOfDevice: ReadonlyMap<string, string>,
): PickList {
  const byBatch = new Map<string, { batchNumber: string; brand: string; fluid: Fluid; litres: number }>();
  const short = new Map<string, { brand: string; fluid: Fluid; litres: number; text: string }>();
  let litres = 0;
  let batteries = 0;
  const warningsToFix: PickList['warningsToFix'] = [];
  for (const s of stops)
    for (const d of s.devices) {
      if (d.battery) batteries++;
      for (const r of d.refill) {
        litres += r.litres;
        if (r.batchNumber) {
          const b = byBatch.get(r.batchNumber) ?? {
            batchNumber: r.batchNumber,
            brand: brandOfBatch.get(r.batchNumber) ?? '',
            fluid: r.fluid,
            litres: 0,
          };
          b.litres += r.litres;
          byBatch.set(r.batchNumber, b);
        } else {
          const brand = brandOfDevice.get(d.serial) ?? 'no brand';
          const key = `${brand}:${r.fluid}`;
          const x = short.get(key) ?? { brand, fluid: r.fluid, litres: 0, text: '' };
          x.litres += r.litres;
          x.text = `No usable ${r.fluid.toLowerCase()} of brand ${brand}: ${roundVolume(x.litres, 2)} L of this round not covered`;
          short.set(key, x);
        }
      }
      for (const text of d.fix) warningsToFix.push({ serial: d.serial, text });
    }
  return {
    batches: [...byBatch.values()]
      .map((b) => ({ ...b, litres: roundVolume(b.litres, 2) }))
      .sort((a, b) => a.batchNumber.localeCompare(b.batchNumber)),
    litres: roundVolume(litres, 2),
    batteries,
    shortages: [...short.values()].map((s) => ({ ...s, litres: roundVolume(s.litres, 2) })),
    warningsToFix,
  };
}
