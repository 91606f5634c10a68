/** Business constants of spec section 9; the one place server, workers and client read them from. */

export const ROLES = ['distributor', 'client'] as const;
export type Role = (typeof ROLES)[number];

/** user_type: market-partner users are scoped by their exclusive devices whatever their role. */
export const USER_TYPES = ['distributor', 'client', 'market-partner'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const PUMP_TYPES = ['Unspecified', 'Sunscreen', 'Sanitizer'] as const;
export type PumpType = (typeof PUMP_TYPES)[number];
/** Batch type codes of spec section 3: 0 none, 1 Sunscreen, 2 Sanitizer. */
export const PUMP_TYPE_CODE: Record<PumpType, 0 | 1 | 2> = { Unspecified: 0, Sunscreen: 1, Sanitizer: 2 };

export const LOCATION_EVENT_TYPES = ['SITE', 'EVENT'] as const;
export type LocationEventType = (typeof LOCATION_EVENT_TYPES)[number];

export const WARNING_CODES = [
  'BATTERY',
  'LEFT_SUNSCREEN_PUMP',
  'RIGHT_SUNSCREEN_PUMP',
  'LEFT_SANITIZER_PUMP',
  'RIGHT_SANITIZER_PUMP',
  'REGISTRATION',
  'BATCH_EXPIRED',
  'BATCH_RECALLED',
  'PUMP_SENSOR',
  'LEFT_PUMP_VOLUME',
  'RIGHT_PUMP_VOLUME',
  'FAILED_REQUEST',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

/**
 * Every state of a pending change (pending_changes.status; the CHECK constraint pending_changes_status_check
 * of migration 0019 holds the database to this list, and tests/integration/house-rules.test.ts the two to
 * each other):
 * - pending: asked for, waiting for the device's next check-in;
 * - applied: the device acknowledged it; failed: the device reported it could not apply it;
 * - expired: the device did not pick it up in time (the check-in or the fleet-health tick settles it);
 * - cancelled: a person cancelled it (or removed what it was for); replaced: a newer request of the same
 *   setting took its place while it was pending.
 * failed and expired raise FAILED_REQUEST until a newer request of the same setting (rules/warnings.ts).
 */
export const PENDING_CHANGE_STATES = ['pending', 'applied', 'failed', 'expired', 'cancelled', 'replaced'] as const;
export type PendingChangeState = (typeof PENDING_CHANGE_STATES)[number];

export const LOW_FLUID_THRESHOLD = 250;
export const LOW_BATTERY_PERCENT = 50;
export const FL_OZ_TO_LITRES = 0.0295735;
export const TSP_PER_VOLUME_UNIT = 0.2;
export const VOLUME_DIVISOR = 1000;
export const MAX_CLIENTS_PER_BRAND = 5;
export const DEVICE_NUMBER_MIN = 1;
export const DEVICE_NUMBER_MAX = 99;
export const TIMER_MIN_MINUTES = 1;
export const TIMER_MAX_MINUTES = 600;
export const STEPS_PER_SECOND = 300;
export const STEPS_PER_ML = 30;
/** Pump mode 1..8 = 1/4 .. 2 tsp. */
export const PUMP_MODE_TSP = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export const INVOICE_OVERDUE_DEACTIVATION_DAYS = 15;
export const MIN_SOFTWARE_VERSION_RIGHT_PUMP = '1.0.9';

/** Refresh schedules of spec section 9, in milliseconds. */
export const REFRESH_MS = { deviceCards: 20_000, devicePanel: 10_000, simLog: 15_000 } as const;

/** The map of spec section 2. */
export const MAP_DEFAULTS = { lat: 30.0, lng: -90.26, zoom: 10, minZoom: 4, selectedZoom: 15, labelMinZoom: 10 } as const;

/** Spelled exactly as the spec writes them: existing users rely on these texts. */
export const MESSAGES = {
  loginFailed: 'Incorrect email / password',
  forgotSent: 'Confirmation email has been Sent!',
  forgotFailed: 'Email Incorrect!',
  signUpSuccess: 'Sign Up Success !',
  signUpFailPrefix: 'Sign Up Fail : ',
  passwordPolicy: 'Password must be at least 8 characters and include uppercase, lowercase, and digit.',
  passwordMismatch: 'Please make sure your passwords match.',
  resetFailed: 'Something went wrong.',
  resetSuccess: 'Password Reset Success !',
  required: 'Required',
} as const;
