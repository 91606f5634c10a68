import { createEvent, createStore, sample } from 'effector';
import { createApiFx, http } from '../../shared/api';

/** GET /api/v1/overview (spec section 3): counts by status and usage totals. */
export type Overview = Record<string, number | null>;

export const overviewRequested = createEvent();
export const overviewCleared = createEvent();
/** Counts pushed by the realtime server (overview:changed). */
export const overviewPatched = createEvent<Overview>();
export const fetchOverviewFx = createApiFx<void, Overview>(() => http<Overview>('/api/v1/overview'));

export const $overview = createStore<Overview | null>(null);
$overview.on(fetchOverviewFx.doneData, (_, overview) => overview).on(overviewPatched, (overview, patch) => (overview ? { ...overview, ...patch } : overview)).reset(overviewCleared);
sample({ clock: overviewRequested, fn: () => undefined, target: fetchOverviewFx });
