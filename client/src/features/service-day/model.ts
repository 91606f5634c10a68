import { plural, type Crew, type CrewInput, type ServicePlan, type ServicePlanProgress } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { createApiFx, http, segment } from '../../shared/api';
import { servicePlanProgressedReceived } from '../../shared/realtime';

/**
 * The Service day view (issue 48): pick a date and crews, Plan, look at each crew's route, Publish.
 * The plan's progress arrives over the socket (servicePlan:progressed). The routes are drawn on the map
 * by a layer reading $routes (widgets/map/offline/service-route-layer.tsx), empty while the view is closed.
 */
export const serviceApi = {
  crews: () => http<Crew[]>('/api/v1/crews'),
  addCrew: (body: CrewInput) => http<Crew>('/api/v1/crews', { method: 'POST', json: body }),
  editCrew: (id: number, body: CrewInput) => http<Crew>(`/api/v1/crews/${segment(String(id))}`, { method: 'PUT', json: body }),
  deleteCrew: (id: number) => http<{ detail: string }>(`/api/v1/crews/${segment(String(id))}`, { method: 'DELETE' }),
  plans: (date: string) => http<ServicePlan[]>(`/api/v1/servicePlans?date=${segment(date)}`),
  plan: (date: string, crewIds: number[]) =>
    http<ServicePlan>('/api/v1/servicePlans', { method: 'POST', json: { date, crewIds } }),
  publish: (id: number) => http<ServicePlan>(`/api/v1/servicePlans/${segment(String(id))}/publish`, { method: 'POST' }),
};

/** Each crew's route colour, in crew order (distinct on the map's land and water, and with white numbers). */
export const ROUTE_COLORS = ['#1565c0', '#c62828', '#2e7d32', '#6a1b9a', '#ef6c00', '#00838f', '#ad1457', '#4e342e'] as const;
export const routeColor = (index: number) => ROUTE_COLORS[index % ROUTE_COLORS.length]!;

/** Tomorrow in the browser's calendar: the day a plan is usually made for. */
export const tomorrow = (now = new Date()) => {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export const serviceDayOpened = createEvent();
export const serviceDayClosed = createEvent();
export const dateChanged = createEvent<string>();
export const crewToggled = createEvent<number>();
export const planClicked = createEvent();
export const publishClicked = createEvent();
export const crewSaved = createEvent<{ id: number | null; body: CrewInput }>();
export const crewDeleted = createEvent<number>();

export const loadCrewsFx = createApiFx(serviceApi.crews);
export const loadPlansFx = createApiFx(serviceApi.plans);
export const planFx = createApiFx(({ date, crewIds }: { date: string; crewIds: number[] }) => serviceApi.plan(date, crewIds));
export const publishFx = createApiFx(serviceApi.publish);
export const saveCrewFx = createApiFx(({ id, body }: { id: number | null; body: CrewInput }) =>
  id === null ? serviceApi.addCrew(body) : serviceApi.editCrew(id, body),
);
export const deleteCrewFx = createApiFx(serviceApi.deleteCrew);

export const $open = createStore(false)
  .on(serviceDayOpened, () => true)
  .reset(serviceDayClosed);
export const $date = createStore(tomorrow()).on(dateChanged, (_, d) => d);
export const $crews = createStore<Crew[]>([]).on(loadCrewsFx.doneData, (_, list) => list);
/** Crews chosen for the plan: every crew unless unticked. */
export const $unticked = createStore<ReadonlySet<number>>(new Set()).on(crewToggled, (set, id) => {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
});
export const $chosenCrewIds = combine($crews, $unticked, (crews, off) => crews.filter((c) => !off.has(c.id)).map((c) => c.id));
export const $plan = createStore<ServicePlan | null>(null).reset(serviceDayClosed, dateChanged);
export const $crewsFailed = createStore(false)
  .on(loadCrewsFx.fail, () => true)
  .reset(loadCrewsFx);
export const $planning = planFx.pending;
export const $publishing = publishFx.pending;
/** The last action's answer in words (role=status): planned, published, saved, or why not. */
export const $message = createStore<{ kind: 'ok' | 'error'; text: string } | null>(null).reset(
  serviceDayClosed,
  planClicked,
  publishClicked,
  crewSaved,
);
export const $crewErrors = createStore<Record<string, string[]>>({}).reset(crewSaved, serviceDayClosed);
export const $savedCrew = createStore(0).on(saveCrewFx.done, (n) => n + 1);

const reasonOf = (error: unknown) => {
  const body = (error as { body?: unknown })?.body as Record<string, unknown> | undefined;
  if (body && typeof body.detail === 'string') return body.detail;
  const first = body && Object.values(body).find((v) => Array.isArray(v));
  return Array.isArray(first) && typeof first[0] === 'string' ? first[0] : 'Something went wrong.';
};

sample({ clock: serviceDayOpened, target: loadCrewsFx });
sample({ clock: [serviceDayOpened, dateChanged], source: $date, target: loadPlansFx });
// The newest plan of the date is the one shown (the published one if a newer draft is not being looked at).
sample({ clock: loadPlansFx.doneData, filter: (list) => list.length > 0, fn: (list) => list[0]!, target: $plan });
sample({ clock: planClicked, source: { date: $date, crewIds: $chosenCrewIds }, target: planFx });
sample({ clock: planFx.doneData, target: $plan });
sample({
  clock: planFx.doneData,
  fn: (p) => ({
    kind: 'ok' as const,
    text:
      p.note ??
      `Planned: version ${p.version}, ${p.crews.reduce((a, c) => a + c.stops.length, 0)} stops, ${p.unplanned.length} devices unplanned.`,
  }),
  target: $message,
});
sample({
  clock: planFx.failData,
  fn: (e) => ({ kind: 'error' as const, text: `Could not plan: ${reasonOf(e)}` }),
  target: $message,
});
sample({ clock: publishClicked, source: $plan, filter: (p) => p !== null, fn: (p) => p!.id, target: publishFx });
sample({ clock: publishFx.doneData, target: $plan });
sample({
  clock: publishFx.doneData,
  fn: (p) => ({
    kind: 'ok' as const,
    text: `Published: each crew is mailed its plan (${plural(p.crews.filter((c) => c.stops.length).length, 'mail')}).`,
  }),
  target: $message,
});
sample({
  clock: publishFx.failData,
  fn: (e) => ({ kind: 'error' as const, text: `Could not publish: ${reasonOf(e)}` }),
  target: $message,
});
sample({ clock: crewSaved, target: saveCrewFx });
sample({ clock: crewDeleted, target: deleteCrewFx });
sample({ clock: [saveCrewFx.done, deleteCrewFx.done], target: loadCrewsFx });
sample({
  clock: saveCrewFx.done,
  fn: ({ params }) => ({ kind: 'ok' as const, text: params.id === null ? 'Crew added.' : 'Crew saved.' }),
  target: $message,
});
sample({
  clock: saveCrewFx.failData,
  fn: (e) => ((e as { body?: unknown }).body ?? {}) as Record<string, string[]>,
  target: $crewErrors,
});
sample({
  clock: [saveCrewFx.failData, deleteCrewFx.failData],
  fn: (e) => ({ kind: 'error' as const, text: reasonOf(e) }),
  target: $message,
});

/** Progress pushed live: the shown plan's stops and devices take the pushed state. */
export function applyProgress(plan: ServicePlan, p: ServicePlanProgress): ServicePlan {
  const done = new Map(p.stops.map((s) => [`${s.crewId}:${s.order}`, s.done]));
  const serviced = new Set(p.serviced);
  return {
    ...plan,
    status: p.status,
    progress: p.progress,
    crews: plan.crews.map((c) => ({
      ...c,
      stops: c.stops.map((s) => ({
        ...s,
        done: done.get(`${c.crew.id}:${s.order}`) ?? s.done,
        devices: s.devices.map((d) => ({ ...d, serviced: serviced.has(d.serial) || d.serviced })),
      })),
    })),
  };
}
sample({
  clock: servicePlanProgressedReceived,
  source: $plan,
  filter: (plan, p) => plan !== null && plan.id === p.planId,
  fn: (plan, p) => applyProgress(plan!, p),
  target: $plan,
});

export type RouteLine = {
  crewId: number;
  color: string;
  path: [number, number][];
  stops: { order: number; lng: number; lat: number; done: boolean }[];
};

/** What the map draws: each crew's depot -> stops -> depot as straight segments, its numbered stops. */
export const $routes = combine($open, $plan, $crews, (open, plan, crews): RouteLine[] => {
  if (!open || !plan) return [];
  const depot = new Map(crews.map((c) => [c.id, c.depot]));
  return plan.crews.flatMap((c, i) => {
    if (!c.stops.length) return [];
    const home = depot.get(c.crew.id);
    const stops = c.stops.map((s) => ({ order: s.order, lng: s.site.lng, lat: s.site.lat, done: s.done }));
    const middle = stops.map((s) => [s.lng, s.lat] as [number, number]);
    const path = home ? [[home.lng, home.lat] as [number, number], ...middle, [home.lng, home.lat] as [number, number]] : middle;
    return [{ crewId: c.crew.id, color: routeColor(i), path, stops }];
  });
});
