import {
  batteryForecast,
  BATTERY_TREND_DAYS,
  crewInputSchema,
  forecastRates,
  forecastWindow,
  HOURS_PER_WEEK,
  planServiceDay,
  servicePlanRequestSchema,
  servicePlansQuerySchema,
  siteTimeZone,
  type Crew,
  type DueDevice,
  type DuePump,
  type PlanBody,
  type ServicePlan,
  type ServicePlanProgress,
  type ServicePlanStatus,
  type StockBatch,
  type TravelTimeSource,
} from '@fleet/shared';
import { deviceScope, type ScopeViewer } from '../access/scope.ts';
import { ApiError, parse } from '../lib/errors.ts';
import { timezoneAt } from '../sites/index.ts';
import type { CrewRow, PlanDeviceRow, PlanRow, ServiceDayRepository } from './service-day.repository.ts';

type Viewer = ScopeViewer & { readOnly?: boolean; username?: string };

/** The /maintenance credential (read-only, shared by every technician: auth.service.ts). */
const isMaintenanceCredential = (viewer: Viewer) => Boolean(viewer.readOnly) && viewer.username === 'maintenance';

export type ServiceDayDeps = {
  repo: ServiceDayRepository;
  travel: TravelTimeSource;
  now: () => Date;
  publicUrl: string;
  /** Records a crew's plan mail in the outbox (one job per crew, keyed by plan and crew: publishing twice mails once). */
  enqueueMail: (payload: { to: string; planId: number; crewId: number; link: string }, idempotencyKey: string) => Promise<void>;
  progressed?: (ownerId: number, payload: ServicePlanProgress) => void;
};

const NO_CREW = 'No crew with this id.';
const NO_PLAN = 'No service plan with this id.';
const DAY = 86_400_000;

/**
 * Crews and service plans (issue 48). Who may do what:
 * - clients: nothing (403); the maintenance credential (read-only) reads the published plans of a date, every
 *   owner's (the field app's day's work: the credential sees every device), and nothing else;
 * - a distributor keeps its own crews and plans; a market partner its own, planned over its exclusive
 *   devices only (the owner of a crew or plan is the user who made it: two distributors never see or
 *   replace each other's plans).
 * A plan is stored as planned (a draft, versioned per owner and date); publishing it makes it the owner's
 * one published plan of that date (the previous one, if any, becomes 'superseded' and stays readable),
 * mails each crew its part and starts following progress. Publishing a published plan answers it again.
 */
export function serviceDayService(deps: ServiceDayDeps) {
  const { repo } = deps;

  function ownerOf(viewer: Viewer): number {
    if (viewer.readOnly || (viewer.access !== 'distributor' && viewer.access !== 'market-partner')) throw ApiError.forbidden();
    return viewer.id;
  }

  function crewValues(body: unknown) {
    const c = parse(crewInputSchema, body ?? {});
    return {
      name: c.name,
      email: c.email,
      phone: c.phone,
      depotAddress: c.depot.address,
      depotLat: c.depot.lat,
      depotLng: c.depot.lng,
      timezoneId: timezoneAt(c.depot.lat, c.depot.lng) ?? 'UTC',
      startTime: c.startTime,
      endTime: c.endTime,
      capacityLitres: c.capacityLitres,
      capacityBatteries: c.capacityBatteries,
    };
  }

  const idOf = (raw: string, detail: string) => {
    const id = Number(raw);
    // Ids are PostgreSQL integers: one beyond them names nothing (a 404, not the database's out-of-range error).
    if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) throw ApiError.notFound(detail);
    return id;
  };

  /** Stops done (every device with a record since publishing) and the status that follows from them. */
  async function progressOf(plan: PlanRow) {
    const serviced = plan.publishedAt ? await repo.servicedSince(plan.id, plan.publishedAt) : new Set<string>();
    const stops = plan.body.crews.flatMap((c) =>
      c.stops.map((s) => ({
        crewId: c.crew.id,
        order: s.order,
        done: s.devices.length > 0 && s.devices.every((d) => serviced.has(d.serial)),
      })),
    );
    const done = stops.filter((s) => s.done).length;
    let status = plan.status as ServicePlanStatus;
    if (status === 'published' || status === 'in_progress')
      status = stops.length && done === stops.length ? 'done' : serviced.size ? 'in_progress' : 'published';
    if (status !== plan.status) await repo.advanceStatus(plan.id, status);
    return { serviced, stops, done, status };
  }

  async function answer(plan: PlanRow): Promise<ServicePlan> {
    const p = await progressOf(plan);
    const doneAt = new Map(p.stops.map((s) => [`${s.crewId}:${s.order}`, s.done]));
    return {
      id: plan.id,
      date: plan.planDate,
      version: plan.version,
      status: p.status,
      createdAt: plan.createdAt.toISOString(),
      publishedAt: plan.publishedAt?.toISOString() ?? null,
      crews: plan.body.crews.map((c) => ({
        ...c,
        stops: c.stops.map((s) => ({
          ...s,
          done: doneAt.get(`${c.crew.id}:${s.order}`) ?? false,
          devices: s.devices.map((d) => ({ ...d, serviced: p.serviced.has(d.serial) })),
        })),
      })),
      unplanned: plan.body.unplanned,
      shortages: plan.body.shortages,
      note: plan.body.note,
      travelSource: plan.body.travelSource,
      progress: { stops: p.stops.length, done: p.done },
    };
  }

  async function progressPayload(plan: PlanRow): Promise<ServicePlanProgress> {
    const p = await progressOf(plan);
    return {
      planId: plan.id,
      date: plan.planDate,
      status: p.status,
      progress: { stops: p.stops.length, done: p.done },
      stops: p.stops,
      serviced: [...p.serviced].sort(),
      at: deps.now().toISOString(),
    };
  }

  /** The due rules' view of each placed device in scope (forecast rates, battery trend, batches). */
  async function dueDevices(viewer: Viewer, now: Date): Promise<{ devices: DueDevice[]; rows: PlanDeviceRow[] }> {
    const rows = await repo.devices(deviceScope(viewer));
    const ids = rows.map((r) => r.id);
    const window = forecastWindow(now);
    const [slots, battery] = await Promise.all([
      repo.slotTotals(ids, window.start, window.end),
      repo.batteryDailyMinimums(ids, new Date(now.getTime() - (BATTERY_TREND_DAYS + 1) * DAY)),
    ]);
    const slotsOf = new Map<string, number[]>();
    for (const s of slots) {
      const key = `${s.deviceId}:${s.pump}`;
      const arr = slotsOf.get(key) ?? new Array<number>(HOURS_PER_WEEK).fill(0);
      arr[s.slot] = s.ml;
      slotsOf.set(key, arr);
    }
    const batteryOf = new Map<number, { date: string; percent: number }[]>();
    for (const b of battery)
      batteryOf.set(b.deviceId, [...(batteryOf.get(b.deviceId) ?? []), { date: b.date, percent: b.percent }]);
    const devices = rows.map((r): DueDevice => {
      const timeZone = siteTimeZone(r.timezoneId);
      const pumps = ([1, 2] as const).flatMap((pump): DuePump[] => {
        const type = pump === 1 ? r.leftPumpType : r.rightPumpType;
        if (type !== 'Sunscreen' && type !== 'Sanitizer') return [];
        const rates = forecastRates({
          mlBySlot: slotsOf.get(`${r.id}:${pump}`) ?? new Array<number>(HOURS_PER_WEEK).fill(0),
          now,
          observedFrom: r.firstEventAt,
        });
        const b = pump === 1 ? r.batch : r.batch2;
        return [
          {
            pump,
            fluid: type,
            remainingMl: pump === 1 ? r.volumeRemain : r.volumeRemain2,
            reservoirMl: r.reservoirMl,
            rate: rates.rate,
            batch: b ? { batchNo: b.batchNo, expireDate: String(b.expireDate).slice(0, 10), recalled: b.isRecalled } : null,
          },
        ];
      });
      return {
        serial: r.serial,
        siteId: r.siteId,
        timeZone,
        brandId: r.brandId,
        brandName: r.brandName,
        pumps,
        battery: batteryForecast(
          (batteryOf.get(r.id) ?? []).sort((a, b) => a.date.localeCompare(b.date)),
          now,
          timeZone,
        ),
        warnings: r.warningLists,
        isMaintenance: r.isMaintenance,
      };
    });
    return { devices, rows };
  }

  return {
    async listCrews(viewer: Viewer): Promise<Crew[]> {
      return (await repo.crews(ownerOf(viewer))).map(toCrew);
    },

    async addCrew(viewer: Viewer, body: unknown): Promise<Crew> {
      const owner = ownerOf(viewer);
      return toCrew(await repo.insertCrew(owner, crewValues(body)));
    },

    async editCrew(viewer: Viewer, rawId: string, body: unknown): Promise<Crew> {
      const owner = ownerOf(viewer);
      const id = idOf(rawId, NO_CREW);
      const row = await repo.updateCrew(owner, id, crewValues(body));
      if (!row) throw ApiError.notFound(NO_CREW);
      return toCrew(row);
    },

    /** Plans already made keep the crew as it was (they hold a copy); only new plans lose it. */
    async removeCrew(viewer: Viewer, rawId: string) {
      const owner = ownerOf(viewer);
      if (!(await repo.deleteCrew(owner, idOf(rawId, NO_CREW)))) throw ApiError.notFound(NO_CREW);
      return { detail: 'Crew deleted.' };
    },

    /** POST /servicePlans: plans the day for the chosen crews and stores it as a new draft version. */
    async plan(viewer: Viewer, body: unknown): Promise<ServicePlan> {
      const owner = ownerOf(viewer);
      const input = parse(servicePlanRequestSchema, body ?? {});
      const ids = [...new Set(input.crewIds)];
      const crewRows = await repo.crewsByIds(owner, ids);
      const missing = ids.filter((id) => !crewRows.some((c) => c.id === id));
      if (missing.length) throw ApiError.field('crewIds', `No crew with id ${missing.join(', ')}.`);
      const now = deps.now();
      const [{ devices, rows }, stock] = await Promise.all([dueDevices(viewer, now), repo.stock()]);
      const sites = [
        ...new Map(
          rows.map((r) => [
            r.siteId,
            {
              id: r.siteId,
              name: r.siteName,
              address: r.siteAddress,
              lat: r.siteLat,
              lng: r.siteLng,
              timeZone: siteTimeZone(r.timezoneId),
            },
          ]),
        ).values(),
      ];
      const planBody: PlanBody = await planServiceDay({
        date: input.date,
        now,
        crews: crewRows.map((c) => ({
          id: c.id,
          name: c.name,
          depot: { address: c.depotAddress, lat: c.depotLat, lng: c.depotLng },
          timeZone: c.timezoneId,
          startTime: c.startTime,
          endTime: c.endTime,
          capacityLitres: c.capacityLitres,
          capacityBatteries: c.capacityBatteries,
        })),
        sites,
        devices,
        stock: stock.flatMap((b): StockBatch[] =>
          b.batchType === 1 || b.batchType === 2
            ? [
                {
                  batchNo: b.batchNo,
                  fluid: b.batchType === 1 ? 'Sunscreen' : 'Sanitizer',
                  brandIds: b.brandIds,
                  expireDate: b.expireDate,
                  remainLitres: b.remainLitres,
                  recalled: b.isRecalled,
                },
              ]
            : [],
        ),
        travel: deps.travel,
      }).catch((err: unknown) => {
        throw new ApiError(502, { detail: `The routing service did not answer: ${(err as Error).message}` });
      });
      const row = await repo.transaction(async (tx) => {
        await tx.lockOwnerDate(owner, input.date);
        return tx.insertPlan({
          ownerId: owner,
          planDate: input.date,
          body: planBody,
          createdBy: viewer.id > 0 ? viewer.id : null,
        });
      });
      return answer(row);
    },

    /**
     * GET /servicePlans?date=: every version of the owner's plans of that date, newest first. The
     * maintenance credential: the published plans of that date (one per owner at most).
     */
    async list(viewer: Viewer, query: unknown): Promise<ServicePlan[]> {
      if (isMaintenanceCredential(viewer))
        return Promise.all((await repo.publishedPlans(parse(servicePlansQuerySchema, query ?? {}).date)).map(answer));
      const owner = ownerOf(viewer);
      const q = parse(servicePlansQuerySchema, query ?? {});
      return Promise.all((await repo.plans(owner, q.date)).map(answer));
    },

    async get(viewer: Viewer, rawId: string): Promise<ServicePlan> {
      const plan = await repo.plan(ownerOf(viewer), idOf(rawId, NO_PLAN));
      if (!plan) throw ApiError.notFound(NO_PLAN);
      return answer(plan);
    },

    /**
     * POST /servicePlans/{id}/publish. Under one lock per owner and date, so two publishes of the same
     * day queue instead of racing: the later one supersedes the earlier (still readable), none is lost.
     */
    async publish(viewer: Viewer, rawId: string): Promise<ServicePlan> {
      const owner = ownerOf(viewer);
      const id = idOf(rawId, NO_PLAN);
      const first = await repo.plan(owner, id);
      if (!first) throw ApiError.notFound(NO_PLAN);
      const plan = await repo.transaction(async (tx) => {
        await tx.lockOwnerDate(owner, first.planDate);
        const p = (await tx.planForUpdate(owner, id))!;
        if (p.status === 'draft' || p.status === 'superseded') {
          const current = await tx.publishedOf(owner, p.planDate);
          if (current && current.id !== p.id) await tx.setStatus(current.id, 'superseded');
          const at = deps.now();
          await tx.setStatus(p.id, 'published', at);
          await tx.insertPlanDevices(
            p.body.crews.flatMap((c) =>
              c.stops.flatMap((s) =>
                s.devices.map((d) => ({ planId: p.id, serial: d.serial, crewId: c.crew.id, stopOrder: s.order })),
              ),
            ),
          );
          return { ...p, status: 'published', publishedAt: at };
        }
        return p;
      });
      // The mails after the commit (a plan is never mailed that was not published); the same keys again on
      // a repeated publish: the outbox records each mail once, so this also mends a publish cut short.
      const crewsById = new Map(
        (
          await repo.crewsByIds(
            owner,
            plan.body.crews.map((c) => c.crew.id),
          )
        ).map((c) => [c.id, c]),
      );
      for (const c of plan.body.crews) {
        const crew = crewsById.get(c.crew.id);
        if (!crew || !c.stops.length) continue;
        await deps.enqueueMail(
          { to: crew.email, planId: plan.id, crewId: c.crew.id, link: `${deps.publicUrl}/maintenance` },
          `service-plan:${plan.id}:${c.crew.id}`,
        );
      }
      return answer(plan);
    },

    /** A maintenance record of `serial`: the published plans visiting it move on, and their owners hear it. */
    async deviceServiced(serial: string) {
      for (const open of await repo.openPlansWithDevice(serial)) {
        const plan = await repo.plan(open.ownerId, open.id);
        if (plan) deps.progressed?.(open.ownerId, await progressPayload(plan));
      }
    },
  };
}

function toCrew(r: CrewRow): Crew {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    depot: { address: r.depotAddress, lat: r.depotLat, lng: r.depotLng },
    timeZone: r.timezoneId,
    startTime: r.startTime,
    endTime: r.endTime,
    capacityLitres: r.capacityLitres,
    capacityBatteries: r.capacityBatteries,
  };
}
