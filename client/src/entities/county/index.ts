export { $counties, $countyNames, countiesCleared, countiesRequested, countyOutlines, fetchCountiesFx, type CountyCollection, type CountyFeature, type LocationRow } from './model';
export { countyRows, emptyTally, tally, type CountyRow, type StatusTally } from './lib';
