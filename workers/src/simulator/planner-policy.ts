/**
 * Service day's planner (issue 48) as a season policy: each morning it reads the fleet as the portal shows
 * it, turns every unit into the due rules' view (shared/src/rules/service-day/due.ts: the pump forecasts
 * from the portal's hour-of-week rates, batches, warnings) and plans the day with the portal's own
 * `planServiceDay` (the solver, ETAs, batch picks). The crews drive the plan's routes; a pump the plan
 * refills is refilled, and a batch the plan replaces (expired by the visit, or recalled) is swapped for
 * the batch the pick list chose.
 *
 * Left out of the view: what a simulated technician cannot fix (battery trends, sensor and request
 * warnings, the maintenance flag). `scope: 'fluid'` is the refill round: no batch is a reason to go, and a
 * pump whose batch is recalled or expired is left to the distributor (the demo's crews: the recall and expiry
 * the demo shows stay for visitors to see).
 */
import {
  greatCircleSource,
  localDateOf,
  planServiceDay,
  type DueDevice,
  type PlanCrewInput,
  type PlanSite,
  type StockBatch,
} from '@fleet/shared';
import {
  LOW_FLUID_WARNINGS,
  ROAD_FACTOR,
  type CrewRoute,
  type CrewSpec,
  type FleetDeviceView,
  type ServicePolicy,
  type Visit,
} from './season.ts';

export type PlannerOptions = {
  name?: string;
  /** Days after the plan's date that due work is planned for (the portal's default: 1). */
  marginDays?: number;
  /** Units at a visited site are topped up when due within this many days (the portal's default: 3). */
  topUpDays?: number;
  /** A pump is due when its forecast falls to this many ml (default 0: when it runs dry). */
  reserveMl?: number;
  /** 'service' (default): fluid and batches; 'fluid': fluid only. */
  scope?: 'service' | 'fluid';
  /** The batches the crews may pour (first expiry first out); without it, the pump's own batch. */
  stock?: (fleet: readonly FleetDeviceView[]) => readonly StockBatch[];
};

/** One brand for units that carry none: the pick list matches batches to brands. */
const NO_BRAND = 0;

export function plannerPolicy(opts: PlannerOptions = {}): ServicePolicy {
  const scope = opts.scope ?? 'service';
  return {
    name: opts.name ?? 'planner',
    async planDay({ now, fleet, crews }) {
      if (!crews.length) return [];
      const siteIds = new Map<string, number>();
      const sites: PlanSite[] = [];
      for (const d of fleet) {
        if (siteIds.has(d.site.id)) continue;
        siteIds.set(d.site.id, sites.length + 1);
        sites.push({ id: sites.length + 1, name: d.site.name, address: '', lat: d.lat, lng: d.lng, timeZone: d.site.timezone });
      }
      const devices = fleet.map((d) => dueView(d, siteIds.get(d.site.id)!, scope, opts.reserveMl ?? 0));
      const date = localDateOf(now, crews[0]!.timezone);
      const plan = await planServiceDay({
        date,
        now,
        crews: crews.map((c, i) => crewInput(c, i)),
        sites,
        devices,
        stock: opts.stock?.(fleet) ?? [],
        travel: greatCircleSource(ROAD_FACTOR, crews[0]!.speedKmh),
        ...(opts.marginDays !== undefined ? { marginDays: opts.marginDays } : {}),
        ...(opts.topUpDays !== undefined ? { topUpDays: opts.topUpDays } : {}),
      });
      return plan.crews.flatMap((c, i): CrewRoute[] => {
        const visits = c.stops.flatMap((s) =>
          s.devices.map((d): Visit => {
            const refills = new Map<1 | 2, Visit['refills'][number]>();
            for (const r of d.refill)
              if (!refills.has(r.pump))
                refills.set(r.pump, r.replacesBatch && r.batchNumber ? { pump: r.pump, batch: r.batchNumber } : { pump: r.pump });
            return { serial: d.serial, refills: [...refills.values()] };
          }),
        );
        return visits.length ? [{ crew: crews[i]!.id, visits }] : [];
      });
    },
  };
}

/** A unit as the due rules see it. */
function dueView(d: FleetDeviceView, siteId: number, scope: 'service' | 'fluid', reserveMl: number): DueDevice {
  return {
    serial: d.serial,
    siteId,
    timeZone: d.site.timezone,
    brandId: NO_BRAND,
    brandName: null,
    pumps: d.pumps.flatMap((p) =>
      // The refill round leaves a recalled or expired batch to the distributor (its fluid is not topped up).
      (p.fluid === 'Sunscreen' || p.fluid === 'Sanitizer') && (scope === 'service' || !(p.batchRecalled || p.batchExpired))
        ? [
            {
              pump: p.pump,
              fluid: p.fluid,
              remainingMl: p.sensor ? p.volumeMl : 0,
              reservoirMl: p.reservoirMl,
              rate: p.rate ?? null,
              reserveMl,
              batch:
                scope === 'service' && p.batch
                  ? { batchNo: p.batch, expireDate: p.batchExpireDate ?? '9999-12-31', recalled: p.batchRecalled }
                  : null,
            },
          ]
        : [],
    ),
    battery: { kind: 'none', why: 'not-enough-data', slopePerDay: null },
    warnings: d.warnings.filter((w) => LOW_FLUID_WARNINGS.includes(w)),
    isMaintenance: false,
  };
}

const hhmm = (hour: number) =>
  `${String(Math.floor(hour)).padStart(2, '0')}:${String(Math.round((hour % 1) * 60)).padStart(2, '0')}`;

function crewInput(c: CrewSpec, i: number): PlanCrewInput {
  return {
    id: i + 1,
    name: c.id,
    depot: { address: '', lat: c.depot.lat, lng: c.depot.lng },
    timeZone: c.timezone,
    startTime: hhmm(c.hours.start),
    endTime: hhmm(c.hours.end),
    capacityLitres: c.capacityMl / 1000,
    capacityBatteries: 0,
  };
}

/** The season fleet's batches as stock for the planner's pick list: plenty of each; recalled as the fleet shows. */
export const seasonStock =
  (batches: readonly { batchNo: string; fluid: string; expireDate: string }[]) =>
  (fleet: readonly FleetDeviceView[]): StockBatch[] => {
    const recalled = new Set(fleet.flatMap((d) => d.pumps.filter((p) => p.batchRecalled && p.batch).map((p) => p.batch!)));
    return batches.flatMap((b) =>
      b.fluid === 'Sunscreen' || b.fluid === 'Sanitizer'
        ? [
            {
              batchNo: b.batchNo,
              fluid: b.fluid,
              brandIds: [NO_BRAND],
              expireDate: b.expireDate,
              remainLitres: 1e6,
              recalled: recalled.has(b.batchNo),
            },
          ]
        : [],
    );
  };
