/**
 * One schema for every entity of spec section 3, on PostgreSQL (PGlite embedded, or a server).
 * Migrations are generated from this file by drizzle-kit into server/drizzle/ and applied by migrate.ts.
 */
import { sql, type SQLWrapper } from 'drizzle-orm';
import { PENDING_CHANGE_STATES } from '@fleet/shared';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  time,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Binary bytes: node-postgres answers a Buffer, PGlite a Uint8Array; both come back as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true });

// ---------------------------------------------------------------- users and their tokens

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    company: text('company').notNull().default(''),
    phone: text('phone').notNull().default(''),
    /** 'distributor' | 'client' */
    role: text('role').notNull(),
    /** 'distributor' | 'client' | 'market-partner' */
    userType: text('user_type').notNull(),
    /** false: a sign-up request not yet approved, or an account deactivated (overdue invoice). */
    activated: boolean('activated').notNull().default(false),
    /** set when a distributor rejects a sign-up request; rejected users are not listed as pending. */
    rejectedAt: ts('rejected_at'),
    deactivatedReason: text('deactivated_reason'),
    profileUrl: text('profile_url'),
    notifyEmail: boolean('is_enable_notification_email').notNull().default(false),
    notifyPhone: boolean('is_enable_notification_phone').notNull().default(false),
    notifyWeeklyReport: boolean('is_enable_notification_weekly_report').notNull().default(false),
    notifyDailyDispensation: boolean('is_enable_notification_daily_dispensation').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/** API tokens (`Authorization: Token <key>`); only a keyed hash of the key is stored. */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('auth_tokens_key_hash_key').on(t.keyHash), index('auth_tokens_user_idx').on(t.userId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash)],
);

// ---------------------------------------------------------------- places

/** Counties / districts (Louisiana parishes in the demo), with their real outline as GeoJSON text. */
export const locations = pgTable('locations', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  state: text('state').notNull().default(''),
  /** FIPS code when the outline comes from the US counties data set. */
  fips: text('fips'),
  /** A FeatureCollection whose first feature has property name_2 (spec section 3). */
  geoJson: text('geo_json').notNull(),
  /** 'POINT(lng lat)' */
  centroid: text('centroid').notNull(),
});

/** Device groups (sites or events): one address where one or more devices stand. */
export const deviceGroups = pgTable(
  'device_groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().default(''),
    address: text('address').notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    locationId: integer('location_id').references(() => locations.id),
    /** The client company the site belongs to, if any. */
    clientId: integer('client_id').references(() => users.id, { onDelete: 'set null' }),
    /** IANA time zone derived from the coordinates; telemetry is aggregated in it. */
    timezoneId: text('timezone_id'),
    createdAt: createdAt(),
  },
  (t) => [index('device_groups_location_idx').on(t.locationId)],
);

// ---------------------------------------------------------------- brands and batches

export const brands = pgTable(
  'brands',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    imageUrl: text('image_url'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('brands_name_key').on(sql`lower(${t.name})`)],
);

/** Clients a brand is assigned to (at most 5 per brand, checked by the service in the same transaction). */
export const brandClients = pgTable(
  'brand_clients',
  {
    brandId: integer('brand_id')
      .notNull()
      .references(() => brands.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.brandId, t.userId] }), index('brand_clients_user_idx').on(t.userId)],
);

/**
 * The batch-number key in SQL, for a column or a bound value: shared's batchNumberKey (letter case and the
 * spaces around it ignored) as PostgreSQL computes it. The unique index below is on it (migration 0019), so
 * every comparison of batch numbers that uses it is answered by that index.
 */
export const batchNumberKeyOf = (value: SQLWrapper | string) => sql`lower(btrim(${value}))`;
/**
 * The devices a batch feeds, on either pump, as a condition on `devices`: the one rule of recall and resume
 * (a batch id) and of the devicePage and deviceRollup `batch` filters (a number, by batchNumberKeyOf, whose
 * unique index makes a number one batch), so Recall's list shows the devices the recall pauses.
 */
export const fedByBatch = (batch: number | string) => {
  const ids =
    typeof batch === 'number'
      ? sql`${batch}`
      : sql`select b.id from batches b where ${batchNumberKeyOf(sql`b.batch_no`)} = ${batchNumberKeyOf(batch)}`;
  // Two hashed look-ups of the batch's ids, not a correlated search per device.
  return sql`(devices.batch_id in (${ids}) or devices.batch2_id in (${ids}))`;
};
/**
 * A market-partner company as the filters compare it (devicePage's and deviceRollup's `partner`, whose query
 * schemas trim and lower-case what is asked): the name ignoring case and surrounding white space.
 */
export const companyKeyOf = (value: SQLWrapper | string) => sql`lower(btrim(${value}))`;

export const batches = pgTable(
  'batches',
  {
    id: serial('id').primaryKey(),
    batchNo: text('batch_no').notNull(),
    /** 1 Sunscreen, 2 Sanitizer, 0 none */
    batchType: smallint('batch_type').notNull(),
    installDate: date('install_date').notNull(),
    expireDate: date('expire_date').notNull(),
    /** Litres (entered in fl.oz. and converted with 0.0295735). */
    volumeLitres: doublePrecision('volume_litres').notNull(),
    remainLitres: doublePrecision('remain_litres').notNull(),
    isRecalled: boolean('is_recalled').notNull().default(false),
    recalledAt: ts('recalled_at'),
    createdOn: createdAt(),
  },
  (t) => [uniqueIndex('batches_batch_no_key').on(batchNumberKeyOf(t.batchNo))],
);

/**
 * What check-ins took from a batch and `batches.remain_litres` does not include yet (migration 0015). A
 * check-in appends here instead of updating the shared batch row: every device on a batch checked in
 * through that one row's lock, so one slow commit held all of them. A batch's remaining volume is
 * `greatest(0, remain_litres - sum(litres))` over its rows here (batches.repository.ts reads it so);
 * `batch_consumption_fold` moves the rows into `remain_litres` (the fleet-health tick, and a batch's edit).
 */
export const batchConsumption = pgTable(
  'batch_consumption',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    batchId: integer('batch_id')
      .notNull()
      .references(() => batches.id, { onDelete: 'cascade' }),
    litres: doublePrecision('litres').notNull(),
  },
  (t) => [index('batch_consumption_batch_idx').on(t.batchId)],
);

// ---------------------------------------------------------------- devices

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    serial: text('serial').notNull(),
    label: text('label').notNull().default(''),
    number: smallint('number'),
    address: text('address').notNull().default(''),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    /** Null while the serial is provisioned but not placed (the 'avaliableDevice' list). */
    groupId: integer('group_id').references(() => deviceGroups.id, { onDelete: 'set null' }),
    brandId: integer('brand_id').references(() => brands.id, { onDelete: 'set null' }),
    locationEventType: text('location_event_type').notNull().default('SITE'),
    leftPumpType: text('left_pump_type').notNull().default('Sunscreen'),
    rightPumpType: text('right_pump_type').notNull().default('Unspecified'),
    batchId: integer('batch_id').references(() => batches.id, { onDelete: 'set null' }),
    batch2Id: integer('batch2_id').references(() => batches.id, { onDelete: 'set null' }),
    levelSensor1: boolean('level_sensor1').notNull().default(true),
    levelSensor2: boolean('level_sensor2').notNull().default(true),
    /** Remaining fluid per pump in ml (low at 250 or less). */
    volumeRemain: doublePrecision('volume_remain').notNull().default(0),
    volumeRemain2: doublePrecision('volume_remain2').notNull().default(0),
    /** Reservoir size per pump in ml: what 'RESET tsp' (resetMl) refills the remaining volume to. */
    reservoirMl: doublePrecision('reservoir_ml').notNull().default(1500),
    /** Running totals kept on ingest, so overview sums 10,000 rows, not a year of events. */
    dispenseCount1: bigint('dispense_count1', { mode: 'number' }).notNull().default(0),
    dispenseCount2: bigint('dispense_count2', { mode: 'number' }).notNull().default(0),
    dispensedMl1: doublePrecision('dispensed_ml1').notNull().default(0),
    dispensedMl2: doublePrecision('dispensed_ml2').notNull().default(0),
    isPause: boolean('is_pause').notNull().default(false),
    isActivated: boolean('is_activated').notNull().default(true),
    /** Rental value ('active' in the spec); null when no rental is set. */
    active: text('active'),
    isOnline: boolean('is_online').notNull().default(false),
    isRegistration: boolean('is_registration').notNull().default(false),
    isMaintenance: boolean('is_maintenance').notNull().default(false),
    isEnabledMaintenance: boolean('is_enabled_maintenance').notNull().default(false),
    isEnabledVandalism: boolean('is_enabled_vandalism').notNull().default(false),
    warningLists: jsonb('warning_lists')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isWarning: boolean('is_warning').notNull().default(false),
    isBatchWarning: boolean('is_batch_warning').notNull().default(false),
    batteryWarning: boolean('battery_warning').notNull().default(false),
    batteryVolt: real('battery_volt'),
    batteryPercent: real('battery_percent'),
    signalQuality: smallint('signal_quality'),
    coreVer: text('core_ver'),
    /** Daily power-off and wake-up times ('HH:mm'), and when the device is next expected. */
    poweroffTime: text('poweroff_time'),
    wakeup1Time: text('wakeup1_time'),
    nextWakeupTime: ts('next_wakeup_time'),
    lastSeenAt: ts('last_seen_at'),
    /** Reported by the device at its last check-in (the PUMP_SENSOR warning). */
    pumpSensorFault: boolean('pump_sensor_fault').notNull().default(false),
    /** The device's own location fix, which may differ from where it was placed. */
    reportedLat: doublePrecision('reported_lat'),
    reportedLng: doublePrecision('reported_lng'),
    reportedLocationAt: ts('reported_location_at'),
    simcardPhoneNumber: text('simcard_phone_number'),
    imei: text('imei'),
    simSerialNumber: text('sim_serial_number'),
    /** Keyed hash of the device's gateway secret. */
    secretHash: text('secret_hash'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('devices_serial_key').on(t.serial),
    index('devices_group_idx').on(t.groupId),
    index('devices_brand_idx').on(t.brandId),
    // The device list's order (migration 0013): an index scan instead of an on-disk sort of list_json.
    index('devices_list_order_idx')
      .on(t.groupId, t.number, t.serial)
      .where(sql`group_id is not null`),
  ],
);

/**
 * Each device's list answer (spec section 3 fields) as JSON text, kept current by database triggers on the
 * device row and on everything it shows (brand, batches, site, rental, pending changes, partners): the
 * list is then a column read, not a JSON object built per device per request. Its own table (migration
 * 0022), not a column of `devices`: scans of devices (counts, pins, sites, search) read narrow rows.
 */
export const deviceListAnswers = pgTable('device_list_answers', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  listJson: text('list_json').notNull(),
});

/** Market-partner companies' exclusive devices (exclusive_device_serials). */
export const userExclusiveDevices = pgTable(
  'user_exclusive_devices',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceId] }), index('user_exclusive_devices_device_idx').on(t.deviceId)],
);

/**
 * Settings a person asked for that the device has not yet acknowledged (pending_flags of spec section 4).
 * kind: 'activation' | 'rental' | 'other'; status: one of shared's PENDING_CHANGE_STATES (a CHECK holds it).
 */
export const pendingChanges = pgTable(
  'pending_changes',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    setting: text('setting').notNull(),
    desired: jsonb('desired').notNull(),
    /** What the portal showed before the request (restored if the request is cancelled). */
    previous: jsonb('previous'),
    status: text('status').notNull().default('pending'),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    expectedAt: ts('expected_at'),
    expiresAt: ts('expires_at'),
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    index('pending_changes_device_idx').on(t.deviceId, t.status),
    check(
      'pending_changes_status_check',
      sql.raw(`status IN (${PENDING_CHANGE_STATES.map((state) => `'${state}'`).join(', ')})`),
    ),
  ],
);

export const pumpSettings = pgTable('pump_settings', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  stepsPerSecond: integer('steps_per_second').notNull().default(300),
  stepsPerMl: integer('steps_per_ml').notNull().default(30),
  mlPerShot: doublePrecision('ml_per_shot').notNull(),
  stepsPerSecond2: integer('steps_per_second2').notNull().default(300),
  stepsPerMl2: integer('steps_per_ml2').notNull().default(30),
  mlPerShot2: doublePrecision('ml_per_shot2').notNull(),
  vandalismMaxShots: integer('vandalism_max_shots').notNull().default(10),
  vandalismInterval: integer('vandalism_interval').notNull().default(60),
});

/** Rental plan (V2) with its daily timer per pump. */
export const rentals = pgTable('rentals', {
  deviceId: integer('device_id')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  startDate: date('start_date').notNull(),
  endDate: date('end_date').notNull(),
  startTime: time('start_time'),
  endTime: time('end_time'),
  pump2StartTime: time('pump_2_start_time'),
  pump2EndTime: time('pump_2_end_time'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// ---------------------------------------------------------------- reports and billing

export const reportEmails = pgTable(
  'report_emails',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    isEnable: boolean('is_enable').notNull().default(true),
    /** When the recipient confirmed (its confirmation link); null: no report reaches it yet (issue 42). */
    confirmedAt: ts('confirmed_at'),
    /** HMAC of the token of the last confirmation link sent; cleared once used. */
    confirmTokenHash: text('confirm_token_hash'),
    createdAt: createdAt(),
  },
  (t) => [
    index('report_emails_owner_idx').on(t.ownerId),
    uniqueIndex('report_emails_confirm_token_idx')
      .on(t.confirmTokenHash)
      .where(sql`${t.confirmTokenHash} is not null`),
  ],
);

/** When an address was last sent a report-recipient confirmation, by whoever: at most one a day per address. */
export const reportRecipientConfirmations = pgTable('report_recipient_confirmations', {
  email: text('email').primaryKey(),
  lastSentAt: ts('last_sent_at').notNull(),
});

export const reportTags = pgTable(
  'report_tags',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isSavedTag: boolean('is_saved_tag').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('report_tags_owner_name_key').on(t.ownerId, t.name)],
);

export const reportTagDevices = pgTable(
  'report_tag_devices',
  {
    tagId: integer('tag_id')
      .notNull()
      .references(() => reportTags.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.tagId, t.deviceId] })],
);

/** Subscriptions billed per device and month (spec section 9 prices). */
export const bills = pgTable(
  'bills',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    billUid: text('bill_uid').notNull(),
    productName: text('product_name').notNull(),
    priceUsd: doublePrecision('price_usd').notNull(),
    name: text('name').notNull(),
    note: text('note').notNull().default(''),
    paymentType: text('payment_type').notNull().default('SUBSCRIPTION'),
    /** 'ACTIVE' | 'PENDING' | 'OVERDUE' | 'CANCELLED' */
    status: text('status').notNull().default('PENDING'),
    dueDate: date('due_date'),
    paidAt: ts('paid_at'),
    createdAt: createdAt(),
    /** The payment provider that issued the bill (server/src/billing/payment-provider.ts); 'offline' by default. */
    provider: text('provider').notNull().default('offline'),
    /** The provider's or the distributor's reference for the payment. */
    paymentReference: text('payment_reference'),
    /** The distributor who marked the bill paid; null when the provider's webhook did. */
    paidBy: integer('paid_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('bills_bill_uid_key').on(t.billUid),
    index('bills_user_idx').on(t.userId),
    // The overdue job reads only bills waiting for payment.
    index('bills_open_due_idx')
      .on(t.dueDate)
      .where(sql`${t.status} in ('PENDING', 'OVERDUE')`),
  ],
);

export const billDevices = pgTable(
  'bill_devices',
  {
    billId: integer('bill_id')
      .notNull()
      .references(() => bills.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.billId, t.deviceId] }), index('bill_devices_device_idx').on(t.deviceId)],
);

/**
 * Webhook events already handled, by the provider's event id: a replayed event (same id) is refused
 * (migration 0010). Rows are small and kept as the payment audit trail.
 */
export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  eventId: text('event_id').primaryKey(),
  provider: text('provider').notNull(),
  billUid: text('bill_uid').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------- telemetry

/**
 * One row per dispense. `seq` is the device's own event number: (device, pump, seq) is unique, so a
 * retried upload never counts twice. History imported without numbers keeps seq null.
 */
export const pumpEvents = pgTable(
  'pump_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    pumpNumber: smallint('pump_number').notNull(),
    seq: bigint('seq', { mode: 'number' }),
    occurredAt: ts('occurred_at').notNull(),
    volumeMl: real('volume_ml').notNull(),
    batchId: integer('batch_id').references(() => batches.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('pump_events_device_time_idx').on(t.deviceId, t.occurredAt),
    uniqueIndex('pump_events_device_seq_key').on(t.deviceId, t.pumpNumber, t.seq),
  ],
);

/** Level sensor and remaining volume readings per pump. */
export const levelReadings = pgTable(
  'level_readings',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    pumpNumber: smallint('pump_number').notNull(),
    recordedAt: ts('recorded_at').notNull(),
    levelSensor: boolean('level_sensor').notNull(),
    volumeRemain: real('volume_remain').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.pumpNumber, t.recordedAt] })],
);

export const batteryReadings = pgTable(
  'battery_readings',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    recordedAt: ts('recorded_at').notNull(),
    batteryVolt: real('battery_volt').notNull(),
    batteryPercent: real('battery_percent').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.recordedAt] })],
);

/** Mobile data used since the previous reading, in kB, and the signal quality at that time. */
export const dataUsage = pgTable(
  'data_usage',
  {
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    recordedAt: ts('recorded_at').notNull(),
    kb: real('kb').notNull(),
    signalQuality: smallint('signal_quality'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.recordedAt] })],
);

/** SIM / SMS log: direction 'IN' | 'OUT'. */
export const smsLog = pgTable(
  'sms_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    direction: text('direction').notNull(),
    message: text('message').notNull(),
    createdWhen: ts('created_when').notNull(),
    seq: bigint('seq', { mode: 'number' }),
  },
  (t) => [
    index('sms_log_device_time_idx').on(t.deviceId, t.createdWhen),
    uniqueIndex('sms_log_device_seq_key').on(t.deviceId, t.seq),
  ],
);

// ---------------------------------------------------------------- jobs

/**
 * One row per queued job that has an idempotency key (report and notice mails): a retry, or a second
 * worker, finds the key done and sends nothing twice.
 */
export const jobRuns = pgTable('job_runs', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  name: text('name').notNull(),
  status: text('status').notNull().default('running'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  createdAt: createdAt(),
  finishedAt: ts('finished_at'),
});

/**
 * Jobs recorded before their request is answered (migration 0012): the mail a 202 promised survives a
 * queue (Redis) that is down, restarted or emptied. The relay (server/src/mail/outbox.ts) hands pending
 * rows to the queue and keeps handing them until the job ledger (job_runs) says the job is done, so a
 * job lost with Redis is queued again; the ledger and the deterministic job id keep a job from running twice.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    jobName: text('job_name').notNull(),
    payload: jsonb('payload').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The id of the request that recorded the job (migration 0014): whichever process relays it, the job's log lines carry it. */
    requestId: text('request_id'),
    /** pending (until the job ledger says done or failed), done, failed. */
    status: text('status').notNull().default('pending'),
    relayAttempts: integer('relay_attempts').notNull().default(0),
    lastError: text('last_error'),
    relayedAt: ts('relayed_at'),
    finishedAt: ts('finished_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('outbox_idempotency_key_key').on(t.idempotencyKey),
    index('outbox_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * The files of one emailReport request (its key: caller, days, devices, addresses, request id), built by the
 * first of its per-address report-email jobs and attached by the others and by their retries, so a report
 * mailed to many addresses is built once. 'building' rows are claims (claimed_at tells a dead builder);
 * rows older than a day are pruned.
 */
export const reportFiles = pgTable('report_files', {
  requestKey: text('request_key').primaryKey(),
  status: text('status').notNull().default('building'),
  /** What the mail says about the report (range, counts, totals) and the attachment names. */
  summary: jsonb('summary'),
  xlsx: bytea('xlsx'),
  pdf: bytea('pdf'),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- maintenance (migration 0011)

/**
 * The /maintenance credential: keyed hashes only. source 'configuration' (MAINTENANCE_TOKEN, registered at
 * start-up) or 'rotation' (made by a distributor, shown once). revoked_at ends one; a revoked configured
 * value keeps its row, so it stays revoked across restarts.
 */
export const maintenanceCredentials = pgTable(
  'maintenance_credentials',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    source: text('source').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('maintenance_credentials_token_hash_key').on(t.tokenHash)],
);

/** What a technician did on one device: actions ('refilled' | 'batch_replaced' | 'repaired') and a note. */
export const maintenanceRecords = pgTable(
  'maintenance_records',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    actions: jsonb('actions').$type<string[]>().notNull(),
    note: text('note').notNull().default(''),
    /** 'maintenance' (the /maintenance credential) or the signed-in user's email. */
    recordedBy: text('recorded_by').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The time of the act: the phone's (field app, migration 0020), else when the server stored it. */
    performedAt: ts('performed_at').notNull().defaultNow(),
    // Migration 0020 (the field app, issue 44).
    receivedAt: ts('received_at').notNull().defaultNow(),
    /** The phone's key for this record: sent twice, stored once. */
    idempotencyKey: text('idempotency_key'),
    refills: jsonb('refills')
      .$type<{ pump: 1 | 2; batchId: number; batchNo: string; recalled: boolean }[]>()
      .notNull()
      .default([]),
    /** The crew the technician declared in the app (the maintenance credential is shared: declared, not proven). */
    crewId: text('crew_id'),
    crewName: text('crew_name'),
    /** A JPEG of at most 1 MB. */
    photo: bytea('photo'),
    /** What the record raised on the device, in words. */
    warnings: jsonb('warnings').$type<string[]>().notNull().default([]),
  },
  (t) => [
    index('maintenance_records_performed_idx').on(t.performedAt),
    index('maintenance_records_device_idx').on(t.deviceId, t.performedAt),
    uniqueIndex('maintenance_records_idempotency_key').on(t.idempotencyKey),
  ],
);

// ---------------------------------------------------------------- service day (migration 0017)

/**
 * A distributor's or market partner's crews (owner_id: the user who keeps them): contact, depot with its
 * zone (from the coordinates, as sites), working hours 'HH:mm' in that zone, and what a van carries.
 */
export const crews = pgTable(
  'crews',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    depotAddress: text('depot_address').notNull(),
    depotLat: doublePrecision('depot_lat').notNull(),
    depotLng: doublePrecision('depot_lng').notNull(),
    timezoneId: text('timezone_id').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    capacityLitres: doublePrecision('capacity_litres').notNull(),
    capacityBatteries: integer('capacity_batteries').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('crews_owner_idx').on(t.ownerId)],
);

/**
 * One version of one owner's plan for a date: body is the plan as planned (shared PlanBody). status:
 * draft, published, in_progress, done, or superseded (a published version a newer one replaced, kept
 * readable). At most one of published / in_progress / done per owner and date (a partial unique index).
 */
export const servicePlans = pgTable(
  'service_plans',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planDate: date('plan_date').notNull(),
    version: integer('version').notNull(),
    status: text('status').notNull().default('draft'),
    body: jsonb('body').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    publishedAt: ts('published_at'),
  },
  (t) => [
    uniqueIndex('service_plans_owner_date_version_key').on(t.ownerId, t.planDate, t.version),
    uniqueIndex('service_plans_one_published_key')
      .on(t.ownerId, t.planDate)
      .where(sql`${t.status} in ('published', 'in_progress', 'done')`),
  ],
);

/** The devices a published plan visits, by crew and stop: a maintenance record finds its plans here. */
export const servicePlanDevices = pgTable(
  'service_plan_devices',
  {
    planId: integer('plan_id')
      .notNull()
      .references(() => servicePlans.id, { onDelete: 'cascade' }),
    serial: text('serial').notNull(),
    crewId: integer('crew_id').notNull(),
    stopOrder: integer('stop_order').notNull(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.serial] }), index('service_plan_devices_serial_idx').on(t.serial)],
);
