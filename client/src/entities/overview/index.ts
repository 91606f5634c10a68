export { $overview, fetchOverviewFx, overviewCleared, overviewPatched, overviewRequested, type Overview } from './model';
