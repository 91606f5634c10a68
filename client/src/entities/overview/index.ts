export {
  $countyOverview,
  $overview,
  countyOverviewPatched,
  countyOverviewRequested,
  fetchCountyOverviewFx,
  fetchOverviewFx,
  overviewCleared,
  overviewPatched,
  overviewRequested,
  type Overview,
} from './model';
