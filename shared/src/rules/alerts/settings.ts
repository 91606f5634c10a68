import { WARNING_CODES, type WarningCode } from '../../constants.ts';

/**
 * Alert defaults (issue 43), each a setting: the server reads ALERT_* variables over these
 * (server/src/config/config.ts), tests pass their own.
 */
export type AlertSettings = {
  /** A condition must have been gone this long before its alert clears (flapping suppressed). */
  holdMinutes: number;
  /**
   * Alerts of one site and cause join one incident; an incident that resolved itself within this window
   * is reopened rather than a new one opened. 60: a carrier outage reaches a site's devices up to two
   * check-in cycles (2 x 30 min) apart.
   */
  groupWindowMinutes: number;
  /** PUMP_RUN_DRY: a pump forecast to run dry within this many hours. */
  runDryHours: number;
  /** BATTERY_FORECAST: a battery whose daily-minimum trend (issue 48's forecast) crosses the low line within this many hours. */
  batteryLowHours: number;
  /** BATCH_EXPIRING: a batch in use expiring within this many days. */
  batchExpiringDays: number;
  /** Escalation: not acknowledged within M minutes notifies the next person or channel... */
  escalateAfterMinutes: number;
  /** ...and again every R minutes until someone acknowledges. */
  repeatEveryMinutes: number;
};

export const ALERT_DEFAULTS: AlertSettings = {
  holdMinutes: 15,
  groupWindowMinutes: 60,
  runDryHours: 48,
  batteryLowHours: 72,
  batchExpiringDays: 14,
  escalateAfterMinutes: 30,
  repeatEveryMinutes: 60,
};

/**
 * Conditions a rule may choose: the spec's warning codes as the check-in computes them, and the
 * conditions the minute job evaluates (BATTERY_FORECAST: the service day's battery forecast, issue 48).
 */
export const ALERT_CONDITIONS = [
  ...WARNING_CODES,
  'OFFLINE',
  'PUMP_RUN_DRY',
  'BATTERY_FORECAST',
  'BATCH_EXPIRING',
  'SUBSCRIPTION_OVERDUE',
] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

export const isAlertCondition = (c: string): c is AlertCondition => (ALERT_CONDITIONS as readonly string[]).includes(c);
export const isWarningCondition = (c: string): c is WarningCode => (WARNING_CODES as readonly string[]).includes(c);

/** Conditions of an account rather than a device (an incident of the account, not of a site). */
export const ACCOUNT_CONDITIONS: readonly AlertCondition[] = ['SUBSCRIPTION_OVERDUE'];

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * Severity (issue 43): critical for what stops a dispenser serving (offline, an empty pump, a recalled
 * batch still in a pump: BATCH_RECALLED is only listed while the batch feeds a pump); info for what
 * needs no one soon, delivered in digests only: a placed device that has not reported yet (it is being
 * installed); warning for the rest.
 */
export function severityOf(condition: AlertCondition): Severity {
  switch (condition) {
    case 'OFFLINE':
    case 'LEFT_SUNSCREEN_PUMP':
    case 'RIGHT_SUNSCREEN_PUMP':
    case 'LEFT_SANITIZER_PUMP':
    case 'RIGHT_SANITIZER_PUMP':
    case 'BATCH_RECALLED':
      return 'critical';
    case 'REGISTRATION':
      return 'info';
    default:
      return 'warning';
  }
}

const RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };
/** The most severe of several (an incident's severity is its worst alert's). */
export const worstSeverity = (list: readonly Severity[]): Severity =>
  list.reduce<Severity>((w, s) => (RANK[s] < RANK[w] ? s : w), 'info');

/** What a person reads for each condition that is not a warning code (those read WARNING_TEXT). */
export const CONDITION_TEXT: Record<Exclude<AlertCondition, WarningCode>, string> = {
  OFFLINE: 'Offline',
  PUMP_RUN_DRY: 'Pump runs dry soon',
  BATTERY_FORECAST: 'Battery forecast to go low',
  BATCH_EXPIRING: 'Batch expiring soon',
  SUBSCRIPTION_OVERDUE: 'Subscription overdue',
};
