export * from './battery-forecast.ts';
export * from './batch-choice.ts';
export * from './due.ts';
export * from './plan.ts';
export * from './solver.ts';
export * from './travel.ts';
