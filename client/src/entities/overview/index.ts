export {
  $countyOverview,
  $countyOverviewFailed,
  $overview,
  $overviewFailed,
  countyOverviewPatched,
  countyOverviewRequested,
  fetchCountyOverviewFx,
  fetchOverviewFx,
  overviewCleared,
  overviewPatched,
  overviewRequested,
  type Overview,
} from './model';
