/**
 * Work the schedules (server/src/processes/schedules.ts) and the queue run: fleet health (devices offline, pending changes expired),
 * the dispensation summaries the report schedules queue, and the job ledger BullMQ and the in-process queue share. The job processors
 * themselves live in @fleet/workers.
 */
export { checkFleetHealth } from './fleet-health.ts';
export { dbJobLedger } from './job-ledger.ts';
export { enqueueSummaries } from './report-schedules.ts';
