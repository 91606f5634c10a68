/**
 * The authorisation matrix: one row per route of the OpenAPI document (and per socket topic). A route
 * added later without a row here fails tests/integration/security-matrix.test.ts with the line to add.
 *
 * A row says who may pass authorisation:
 *   'public'  no credential needed (the test only checks nothing answers 5xx);
 *   'device'  the device gateway: only a device's Basic serial:secret;
 *   [roles]   token routes: the roles that may call it (D distributor, C client, P market partner).
 *             Everyone else (no token, a bad token, a deactivated account, a device credential, the
 *             other roles) must be refused with 401/403 (404 for a thing outside the caller's scope),
 *             whatever the body: never a 2xx, and never a 400 (permission is checked before validation).
 * scoped: the route names a device the caller must have in its scope, in its path ({serial}, or {id} of a
 *   pending change of that device) or, with `body`, in its body. Each scoped role of `allow` is checked on
 *   a REAL device outside its scope: "another client" on a device of the first client's, the market
 *   partner on a device outside its exclusive set. A path route answers 404 or 403; a body route serves
 *   nothing (no 2xx). The same call on a device inside the caller's scope must pass (a body route: 2xx),
 *   so the refusal is the scope's and not the body's.
 * body: builds a valid body naming `serial` (n: a number unique to each call, for names and ids).
 * own: the path names a row of the caller's own ({id} of a report email or a report tag of the first
 *   client's): another client's call with that real id answers 404, the owner's passes.
 *
 * To declare a new route: add `'METHOD /path/{param}': { allow: [...] }` below, in the spec's words.
 */
export type Role = 'D' | 'C' | 'P';
export type Row = {
  allow: 'public' | 'device' | Role[];
  scoped?: boolean;
  body?: (serial: string, n: number) => Record<string, unknown>;
  own?: 'email' | 'tag';
  note?: string;
};

const ALL: Role[] = ['D', 'C', 'P'];
const D: Role[] = ['D'];
const OPERATORS: Role[] = ['D', 'P'];

/** Valid bodies naming one device (the matrix's body-serial checks). */
const range = { startDate: '2026-03-01', endDate: '2026-03-08' };
const report = (serial: string) => ({ deviceSerials: [serial], ...range });
/** An address every token caller of the matrix has on its Email List for Report (security-matrix.test.ts). */
export const MATRIX_EMAIL = 'matrix@mail.test';

export const ROUTE_ROWS: Record<string, Row> = {
  // Auth (spec section 7): public calls are throttled (security-limits.test.ts).
  'post /auth/token/login/': { allow: 'public' },
  'post /auth/token/logout/': { allow: ALL },
  'post /auth/users/': { allow: 'public' },
  'post /api/v1/requestResetPassword/{email}': { allow: 'public' },
  'post /api/v1/resetPassword': { allow: 'public' },
  'get /api/v1/checkUser/{email}': { allow: 'public' },
  'get /api/v1/user': { allow: ALL },
  'get /healthz': { allow: 'public' },
  'get /readyz': { allow: 'public' },
  'get /api/v1/clientConfig': { allow: ALL },
  // Devices
  'get /api/v1/device': { allow: ALL },
  'get /api/v1/devicePins': { allow: ALL },
  'get /api/v1/devicePage': { allow: ALL },
  'get /api/v1/statusCounts': { allow: ALL, note: 'counted in the caller scope' },
  'post /api/v1/deviceSelection': { allow: ALL, note: 'resolved in the caller scope; a serial outside it is not selected' },
  'get /api/v1/deviceRollup': { allow: ALL },
  'get /api/v1/device/{serial}': { allow: ALL, scoped: true },
  'get /api/v1/deviceRegistered': { allow: ALL },
  'get /api/v1/avaliableDevice': { allow: D },
  'post /api/v1/addDevice': { allow: D },
  'put /api/v1/editDevice/{serial}': { allow: D },
  'post /api/v1/deleteDevice/{serial}': { allow: D },
  'post /api/v1/set_device_config/{serial}': { allow: OPERATORS, scoped: true },
  'post /api/v1/setPauseDevice/{serial}': { allow: OPERATORS, scoped: true },
  'get /api/v1/pumpSetting/{serial}': { allow: ALL, scoped: true },
  'put /api/v1/editPumpSetting/{serial}': { allow: OPERATORS, scoped: true },
  'post /api/v1/deviceRegistrationSetup/{serial}': { allow: OPERATORS, scoped: true },
  'post /api/v1/resetMl/{serial}': { allow: OPERATORS, scoped: true },
  'post /api/v1/cancelPendingChange/{id}': { allow: OPERATORS, scoped: true, note: '{id}: a pending change of the device' },
  'get /api/v1/rentalV2/{serial}': { allow: ALL, scoped: true },
  'post /api/v1/rentalV2': {
    allow: OPERATORS,
    scoped: true,
    body: (serial) => ({
      serials: [serial],
      startDate: '2026-12-01',
      endDate: '2026-12-10',
      startTime: '08:00',
      endTime: '18:30',
      pump2StartTime: null,
      pump2EndTime: null,
    }),
  },
  // Sites and counties, overview, places
  'get /api/v1/deviceGroup': { allow: ALL },
  'get /api/v1/siteNames': { allow: ALL, note: "the names of deviceGroup's sites in a view: the caller's sites only" },
  'get /api/v1/location': { allow: ALL },
  'post /api/v1/update_timezone_device_location_group': {
    allow: OPERATORS,
    note: 'clients cannot configure machines (spec section 6); a site in the caller scope (404 otherwise); the zone its coordinates give',
  },
  'get /api/v1/overview': { allow: ALL },
  'get /api/v1/placeSuggestions': { allow: ALL },
  'get /api/v1/placeNames': { allow: ALL },
  'get /api/v1/nearestPlace': { allow: ALL },
  'get /api/v1/confirmReportEmail/{token}': { allow: 'public' },
  // Brands
  'get /api/v1/brand': { allow: ALL },
  'get /api/v1/brand/{id}': { allow: ALL },
  'put /api/v1/brand/{id}': { allow: D },
  'post /api/v1/addBrand': { allow: D },
  'post /api/v1/assignBrandToClient': { allow: D },
  'post /api/v1/assignBrandToDevice': { allow: D },
  'post /api/v1/assignBrandToSelection': { allow: D },
  'post /api/v1/deleteBrand/{id}': { allow: D },
  // Users
  'get /api/v1/myUser': { allow: D },
  'get /api/v1/get_pending_user': { allow: D },
  'post /api/v1/editUser/{email}': {
    allow: D,
    note: "every role may edit its own account (Account Settings); the matrix calls it with another user's email",
  },
  'post /api/v1/activeUser/{email}': { allow: D },
  'post /api/v1/rejectUser/{email}': { allow: D },
  // Batches
  'get /api/v1/batch': { allow: ALL },
  'get /api/v1/batch/{pumpTypeCode}': { allow: ALL },
  'post /api/v1/addBatch': { allow: D },
  'post /api/v1/editBatch/{id}': { allow: D },
  'post /api/v1/deleteBatch/{id}': { allow: D },
  'post /api/v1/recallBatch/{id}': { allow: D },
  'post /api/v1/resumeBatch/{id}': { allow: D },
  // Device gateway and its administration
  'post /device/v1/checkin': { allow: 'device' },
  'get /device/v1/config': { allow: 'device' },
  'post /api/v1/deviceSecret/{serial}': { allow: D },
  'post /api/v1/provisionDevices': { allow: D },
  // Telemetry
  'post /api/v1/getPumpLog': {
    allow: ALL,
    scoped: true,
    body: (serial) => ({
      filterDateType: 'DAILY',
      pumpNumber: 1,
      todayDate: '2026-03-08',
      startDate: '',
      endDate: '',
      filterDeviceType: 'SINGLE',
      serial,
    }),
  },
  'post /api/v1/batteryLog': {
    allow: ALL,
    scoped: true,
    body: (serial) => ({ filterDateType: 'YEARLY', filterDeviceType: 'SINGLE', serial }),
  },
  'get /api/v1/monthDataUsage/{serial}/{date}': { allow: ALL, scoped: true },
  'get /api/v1/dataUsage/{serial}/{date}': { allow: ALL, scoped: true },
  'get /api/v1/simLog/{serial}': { allow: ALL, scoped: true },
  'post /api/v1/sms_status/{serial}': { allow: ALL, scoped: true },
  // Reports: every role, each on its own lists and within its scope
  'get /api/v1/email': { allow: ALL },
  'post /api/v1/addEmail': { allow: ALL },
  'post /api/v1/email/{id}': { allow: ALL, own: 'email' },
  'post /api/v1/deleteEmail/{id}': { allow: ALL, own: 'email' },
  'get /api/v1/reportTag': { allow: ALL },
  'post /api/v1/addReportTag': {
    allow: ALL,
    scoped: true,
    body: (serial, n) => ({ name: `matrix tag ${n}`, deviceSerials: [serial] }),
  },
  'post /api/v1/editReportTag/{id}': { allow: ALL, own: 'tag' },
  'post /api/v1/removeReportTag/{id}': { allow: ALL, own: 'tag' },
  'post /api/v1/report': { allow: ALL, scoped: true, body: report },
  'post /api/v1/downloadReport': { allow: ALL, scoped: true, body: report },
  'post /api/v1/emailReport': {
    allow: ALL,
    scoped: true,
    body: (serial, n) => ({ ...report(serial), emails: [MATRIX_EMAIL], requestId: `matrix-${n}` }),
  },
  'post /api/pdf': {
    allow: ALL,
    note: 'renders the report data it is sent and reads nothing stored: the matrix checks a PDF for a device outside the scope shows only what was sent',
  },
  // Billing (the webhook is authenticated by its signature, not a token)
  'post /api/v1/get_unsubscription_list': { allow: ['D', 'C'] },
  'get /api/v1/get_all_bill': { allow: ['D', 'C'] },
  'post /api/v1/create_bill': {
    allow: ['D', 'C'],
    scoped: true,
    body: (serial, n) => ({
      bill_uid: `matrix-${n}`,
      product_name: 'support-plan',
      price_usd: 1980,
      name: '8x7 support',
      device_serial_list: [serial],
    }),
    note: 'check-out for devices of the caller',
  },
  'post /api/v1/mark_bill_paid': { allow: D },
  'post /api/billing/webhook': { allow: 'public', note: 'HMAC signature (billing tests)' },
  // Market partners and maintenance
  'get /api/v1/allUser': { allow: D },
  'post /api/v1/addExclusiveDevices/{email}': { allow: D },
  'post /api/v1/removeExclusiveDevices/{email}': { allow: D },
  'get /api/v1/maintenanceDevices': { allow: ALL },
  'post /api/v1/maintenanceRecord': { allow: OPERATORS, scoped: true, body: (serial) => ({ serial, actions: ['repaired'] }) },
  'get /api/v1/maintenanceRecords': { allow: ALL },
  'get /api/v1/maintenanceRecord/{id}/photo': {
    allow: ALL,
    note: 'a record of a device in the caller scope (404 otherwise, and without a photo)',
  },
  'get /api/v1/deviceLabels': {
    allow: ALL,
    note: 'labels of the devices the caller sees; a named serial outside its scope answers 400 naming it',
  },
  'get /api/v1/maintenanceCredential': { allow: D },
  'post /api/v1/maintenanceCredential/rotate': { allow: D },
  'post /api/v1/maintenanceCredential/revoke': { allow: D },
  // Alerts (issue 43): every signed-in user has its own incidents (in its scope), rules and bell; an incident
  // outside the caller's scope answers 404. The escalation policy inside PUT notificationRules is a distributor's
  // (a 400 for anyone else, checked by tests/integration/alerts.test.ts).
  'get /api/v1/incidents': { allow: ALL },
  'get /api/v1/incidents/{id}': { allow: ALL },
  'post /api/v1/incidents/{id}/acknowledge': { allow: ALL },
  'post /api/v1/incidents/{id}/resolve': { allow: ALL },
  'post /api/v1/incidents/{id}/comment': { allow: ALL },
  'get /api/v1/notificationRules': { allow: ALL },
  'put /api/v1/notificationRules': { allow: ALL },
  'get /api/v1/notifications': { allow: ALL },
  'post /api/v1/notifications/read': { allow: ALL },
  'get /api/v1/pushSubscription': { allow: ALL },
  'post /api/v1/pushSubscription': { allow: ALL },
  // Service day (issue 48): distributors and partners, each on its own crews and plans (another's id answers 404).
  'get /api/v1/crews': { allow: OPERATORS },
  'post /api/v1/crews': { allow: OPERATORS },
  'put /api/v1/crews/{id}': { allow: OPERATORS },
  'delete /api/v1/crews/{id}': { allow: OPERATORS },
  'post /api/v1/servicePlans': { allow: OPERATORS },
  'get /api/v1/servicePlans': { allow: OPERATORS },
  'get /api/v1/servicePlans/{id}': { allow: OPERATORS },
  'post /api/v1/servicePlans/{id}/publish': { allow: OPERATORS },
};

/** The socket topics (shared POLL_MS keys): every role may subscribe, within its scope. */
export const TOPIC_ROWS: Record<string, { allow: Role[]; scoped: boolean }> = {
  device: { allow: ALL, scoped: true },
  deviceCards: { allow: ALL, scoped: true },
  simLog: { allow: ALL, scoped: true },
  overview: { allow: ALL, scoped: false },
  /** Not polled (no POLL_MS key): each caller's own room; the deltas are scoped when sent (realtime/pin-deltas.ts). */
  pins: { allow: ALL, scoped: false },
};
