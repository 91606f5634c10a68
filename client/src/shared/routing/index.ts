export {
  $location,
  $pathname,
  $query,
  locationSynced,
  navigated,
  pushHistoryFx,
  queryParamRemoved,
  readLocationFx,
  routingStarted,
  ROUTES,
} from './model';
