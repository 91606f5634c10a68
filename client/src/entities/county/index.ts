export { $counties, $countyNames, countiesCleared, countiesRequested, fetchCountiesFx } from './model';
export { type CountyRow, type StatusTally } from './lib';
export { countyRowsOf, createRollup, fetchRollupFx, rollupTally, type RollupQuery } from './rollup';
