import { sitesApi } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { call, createApiFx } from '../../shared/api';

/** GET /api/v1/overview (spec section 3): counts by status and usage totals. */
export type Overview = Record<string, number | null>;

export const overviewRequested = createEvent();
export const overviewCleared = createEvent();
/** Counts pushed by the realtime server (overview:changed). */
export const overviewPatched = createEvent<Overview>();
export const fetchOverviewFx = createApiFx<void, Overview>(() => call(sitesApi.overview));

export const $overview = createStore<Overview | null>(null);
$overview
  .on(fetchOverviewFx.doneData, (_, overview) => overview)
  .on(overviewPatched, (overview, patch) => (overview ? { ...overview, ...patch } : overview))
  .reset(overviewCleared);
sample({ clock: overviewRequested, fn: () => undefined, target: fetchOverviewFx });
/** The last read failed and nothing was shown yet: the dashboard says so and offers to try again. */
export const $overviewFailed = createStore(false)
  .on(fetchOverviewFx.fail, () => true)
  .on(fetchOverviewFx.done, () => false)
  .on(fetchOverviewFx, () => false)
  .reset(overviewCleared);

/**
 * The dashboard's county view (spec section 4: overall versus a county): the same answer for one county
 * (GET /api/v1/overview?location=N), loaded when the county is chosen and then patched by its pushes.
 */
export const countyOverviewRequested = createEvent<number>();
export const countyOverviewPatched = createEvent<Overview & { location: number }>();
export const fetchCountyOverviewFx = createApiFx<number, Overview>((location) =>
  call(sitesApi.overview, { query: { location } }),
);

export const $countyOverview = createStore<Overview | null>(null);
// Only the answer for the county asked last lands; a push for another county is ignored.
const $countyAsked = createStore<number | null>(null)
  .on(countyOverviewRequested, (_, id) => id)
  .reset(overviewCleared);
$countyOverview
  .on(countyOverviewRequested, () => null)
  .on(
    sample({
      clock: fetchCountyOverviewFx.done,
      source: $countyAsked,
      filter: (asked, { params }) => asked === params,
      fn: (_, { result }) => result,
    }),
    (_, overview) => overview,
  )
  .reset(overviewCleared);
sample({
  clock: countyOverviewPatched,
  source: { overview: $countyOverview, asked: $countyAsked },
  filter: ({ overview, asked }, patch) => overview !== null && asked === patch.location,
  fn: ({ overview }, patch) => ({ ...overview!, ...patch }),
  target: $countyOverview,
});
sample({ clock: countyOverviewRequested, target: fetchCountyOverviewFx });
export const $countyOverviewFailed = createStore(false)
  .on(
    sample({ clock: fetchCountyOverviewFx.fail, source: $countyAsked, filter: (asked, { params }) => asked === params }),
    () => true,
  )
  .on(countyOverviewRequested, () => false)
  .reset(overviewCleared);
