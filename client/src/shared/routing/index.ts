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
  withoutQueryParam,
  type AppLocation,
} from './model';
