/** Alert rules (issue 43): pure functions of their inputs and `now`, used by the server and the client. */
export * from './settings.ts';
export * from './conditions.ts';
export * from './hysteresis.ts';
export * from './grouping.ts';
export * from './matching.ts';
export * from './escalation.ts';
