export { $counties, $countyNames, countiesCleared, countiesRequested, fetchCountiesFx } from './model';
export { countyRows, emptyTally, tally, type CountyRow, type StatusTally } from './lib';
