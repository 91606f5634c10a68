/**
 * Scheduled and queued work run by the server: fleet health (devices offline, pending changes expired),
 * the report schedules, and the job ledger BullMQ and the in-process queue share. The job processors
 * themselves live in @fleet/workers.
 */
export { checkFleetHealth, startFleetHealth } from './fleet-health.ts';
export { dbJobLedger } from './job-ledger.ts';
export { startReportSchedules } from './report-schedules.ts';
