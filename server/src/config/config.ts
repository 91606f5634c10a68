import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ALERT_DEFAULTS, type AlertSettings } from '@fleet/shared';

/**
 * Configuration comes from the environment only (documented in .env.example). No credential lives in
 * the code: in development the secrets are generated on first start and kept in DATA_DIR/secrets.json;
 * in production they must be set, and the placeholders of .env.example are refused.
 */
export type Config = {
  nodeEnv: string;
  isProduction: boolean;
  port: number;
  /**
   * The address to listen on (HOST). Unset: every interface, as `npm start` always did; behind a proxy
   * on the same machine `127.0.0.1`, in a container `0.0.0.0` or `::`.
   */
  host: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Key for the HMAC under which API tokens, reset tokens and device secrets are stored. */
  secretKey: string;
  /** The fixed credential of the /maintenance route (spec section 2), never printed. */
  maintenanceToken: string;
  /** The credential workers use to poll the device API (distributor scope; may act as a user). */
  serviceToken: string;
  /** Redis for queues, the Socket.IO adapter and shared poll state; in process without it. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel (REDIS_PREFIX, 'fleet:'): several deployments or test runs on one Redis. */
  redisPrefix: string | undefined;
  /** The device API the pollers read; by default this server's own. */
  deviceApiUrl: string | undefined;
  googleMapsApiKey: string | undefined;
  /** An OSRM-compatible routing service (its /table API) for the service day's travel times; unset: the built-in estimate. */
  routingUrl: string | undefined;
  /**
   * A geocoder for the address search (GEOCODER_URL, docs/configuration-geocoder.md): a Nominatim-compatible
   * service (its /search API, format=jsonv2) or, with GEOCODER_KIND=pelias, a Pelias one (/v1/search).
   * Unset: Google Places with a key, else the offline gazetteer (towns only).
   */
  geocoder: { url: string; kind: GeocoderKind } | undefined;
  /**
   * A MapLibre style the offline map draws instead of its built-in basemap (an operator's own, e.g. a
   * Protomaps basemap whose sources read a PMTiles file through the pmtiles:// protocol). http(s) or a
   * path on this server.
   */
  mapStyleUrl: string | undefined;
  /**
   * PostgreSQL's synchronous_commit for a device check-in's transaction (CHECKIN_SYNCHRONOUS_COMMIT, 'off'
   * by default; docs/operations.md, "Check-ins and durability"). 'off': the device's answer does not wait for the WAL
   * to reach the disk, so a check-in does not queue behind the disk while a checkpoint or the background
   * writer keeps it busy; a crash of the database server (not of this process) can lose the check-ins of
   * its last moments (at most three wal_writer_delay, 0.6 s by default), never half of one. 'on' (or
   * 'local', 'remote_write', 'remote_apply'): every answer waits for the flush, as every other write does.
   */
  checkinSynchronousCommit: SynchronousCommit;
  /** Seed the demo fleet into an empty database (never in production). */
  seedDemo: boolean;
  trustProxy: boolean;
  /** API token lifetime (auth.service.ts): expires after idleHours unused (sliding) or maxDays in all. */
  sessionTtl: { idleHours: number; maxDays: number };
  /** Sign-in attempt limits (auth/limits.ts): per email+address, per address, per email from unknown addresses. */
  loginLimit: {
    perEmail: number;
    perAddress: number;
    windowSeconds: number;
    perEmailAnyAddress?: number;
    backoffSeconds?: number;
  };
  /** Subscriptions and billing (server/src/billing, docs/api.md, 'Subscriptions and billing'). */
  billing: {
    /**
     * Key of the HMAC-SHA256 the payment provider signs its webhook calls with (BILLING_WEBHOOK_SECRET).
     * Generated per DATA_DIR in development; in production unset means the webhook answers 503 and bills
     * are marked paid by a distributor only.
     */
    webhookSecret: string | undefined;
    /** Days from issue to due date of a new bill (BILLING_DUE_DAYS, 14 by default). */
    dueDays: number;
    /** How far a webhook timestamp may be from the server clock (BILLING_WEBHOOK_TOLERANCE_SECONDS, 300). */
    webhookToleranceSeconds: number;
  };
  /** Alerts (server/src/alerts, docs/alerts.md): the rules' defaults, Web Push's VAPID keys, the SMS outbox. */
  alerts: {
    settings: AlertSettings;
    /** VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (a mailto: or https: URL); unset: no Web Push. */
    vapid: { publicKey: string; privateKey: string; subject: string } | undefined;
    /** Where the default SMS provider writes each message (SMS_OUTBOX_DIR, DATA_DIR/sms-outbox). */
    smsOutboxDir: string;
  };
};

export const SYNCHRONOUS_COMMIT = ['off', 'local', 'remote_write', 'on', 'remote_apply'] as const;
export type SynchronousCommit = (typeof SYNCHRONOUS_COMMIT)[number];

export const PLACEHOLDER_SECRETS = new Set(['', 'change-me', 'changeme', 'secret', 'password', 'demo', 'test']);

export class ConfigError extends Error {}

/**
 * `generateSecrets: false` (the scaled roles, start:server and start:worker): secrets come from the
 * environment only, in development too, and none is generated or written to DATA_DIR/secrets.json; several
 * processes with their own DATA_DIR would otherwise each make their own and disagree (main.ts names the
 * missing variables first, ops/process-role.ts). Without BILLING_WEBHOOK_SECRET the webhook is then off
 * (503), as in production.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, opts: { generateSecrets?: boolean } = {}): Config {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const isProduction = nodeEnv === 'production';
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT is not a port number: ${env.PORT}`);
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const generate = !isProduction && opts.generateSecrets !== false;

  const secrets = isProduction ? requiredSecrets(env) : generate ? developmentSecrets(env, dataDir) : environmentSecrets(env);

  return {
    nodeEnv,
    isProduction,
    port,
    host: env.HOST?.trim() || undefined,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Fleet Portal <no-reply@fleet-portal.local>',
    secretKey: secrets.secretKey,
    maintenanceToken: secrets.maintenanceToken,
    serviceToken: secrets.serviceToken,
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || undefined,
    deviceApiUrl: env.DEVICE_API_URL || undefined,
    googleMapsApiKey: env.GOOGLE_MAPS_API_KEY || undefined,
    geocoder: geocoder(env.GEOCODER_URL, env.GEOCODER_KIND),
    routingUrl: env.ROUTING_URL?.trim() || undefined,
    mapStyleUrl: mapStyleUrl(env.MAP_STYLE_URL),
    checkinSynchronousCommit: synchronousCommit(env.CHECKIN_SYNCHRONOUS_COMMIT),
    seedDemo: !isProduction && env.SEED_DEMO !== 'false',
    trustProxy: env.TRUST_PROXY === 'true',
    sessionTtl: {
      idleHours: positive(env.TOKEN_IDLE_HOURS, 168, 'TOKEN_IDLE_HOURS'),
      maxDays: positive(env.TOKEN_MAX_DAYS, 30, 'TOKEN_MAX_DAYS'),
    },
    loginLimit: {
      perEmail: Number(env.LOGIN_LIMIT_PER_EMAIL ?? 10),
      perAddress: Number(env.LOGIN_LIMIT_PER_ADDRESS ?? 50),
      windowSeconds: Number(env.LOGIN_LIMIT_WINDOW_SECONDS ?? 900),
      perEmailAnyAddress: Number(env.LOGIN_LIMIT_PER_EMAIL_ANY_ADDRESS ?? 30),
      backoffSeconds: Number(env.LOGIN_BACKOFF_SECONDS ?? 30),
    },
    billing: {
      webhookSecret: billingWebhookSecret(env, dataDir, generate),
      dueDays: positiveInteger(env, 'BILLING_DUE_DAYS', 14),
      webhookToleranceSeconds: positiveInteger(env, 'BILLING_WEBHOOK_TOLERANCE_SECONDS', 300),
    },
    alerts: {
      settings: {
        holdMinutes: positiveInteger(env, 'ALERT_HOLD_MINUTES', ALERT_DEFAULTS.holdMinutes),
        groupWindowMinutes: positiveInteger(env, 'ALERT_GROUP_WINDOW_MINUTES', ALERT_DEFAULTS.groupWindowMinutes),
        runDryHours: positiveInteger(env, 'ALERT_RUN_DRY_HOURS', ALERT_DEFAULTS.runDryHours),
        batteryLowHours: positiveInteger(env, 'ALERT_BATTERY_LOW_HOURS', ALERT_DEFAULTS.batteryLowHours),
        batchExpiringDays: positiveInteger(env, 'ALERT_BATCH_EXPIRING_DAYS', ALERT_DEFAULTS.batchExpiringDays),
        escalateAfterMinutes: positiveInteger(env, 'ALERT_ESCALATE_AFTER_MINUTES', ALERT_DEFAULTS.escalateAfterMinutes),
        repeatEveryMinutes: positiveInteger(env, 'ALERT_REPEAT_EVERY_MINUTES', ALERT_DEFAULTS.repeatEveryMinutes),
        flapClears: positiveInteger(env, 'ALERT_FLAP_CLEARS', ALERT_DEFAULTS.flapClears),
        flapWindowMinutes: positiveInteger(env, 'ALERT_FLAP_WINDOW_MINUTES', ALERT_DEFAULTS.flapWindowMinutes),
      },
      vapid: vapidKeys(env),
      smsOutboxDir: env.SMS_OUTBOX_DIR ? path.resolve(env.SMS_OUTBOX_DIR) : path.join(dataDir, 'sms-outbox'),
    },
  };
}

/** Web Push's VAPID keys: all three variables or none (generate a pair with `npx web-push generate-vapid-keys`). */
function vapidKeys(env: NodeJS.ProcessEnv): Config['alerts']['vapid'] {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim();
  const privateKey = env.VAPID_PRIVATE_KEY?.trim();
  const subject = env.VAPID_SUBJECT?.trim();
  if (!publicKey && !privateKey) return undefined;
  if (!publicKey || !privateKey) throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  if (!subject || !/^(mailto:|https:)/.test(subject))
    throw new ConfigError('VAPID_SUBJECT must be a mailto: or https: URL when VAPID keys are set');
  return { publicKey, privateKey, subject };
}

/** CHECKIN_SYNCHRONOUS_COMMIT's value: one of PostgreSQL's, 'off' when unset (the bench prints it too). */
export function synchronousCommit(value: string | undefined): SynchronousCommit {
  const given = value?.trim().toLowerCase() || 'off';
  const known = SYNCHRONOUS_COMMIT.find((v) => v === given);
  if (!known) throw new ConfigError(`CHECKIN_SYNCHRONOUS_COMMIT must be one of ${SYNCHRONOUS_COMMIT.join(', ')}: ${value}`);
  return known;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive whole number: ${env[name]}`);
  return value;
}

/**
 * The webhook's HMAC key: BILLING_WEBHOOK_SECRET (24+ characters, no placeholder) when set; in development
 * otherwise generated once and kept in DATA_DIR/secrets.json beside the others; in production and the
 * scaled roles (`generate` false), unset.
 */
function billingWebhookSecret(env: NodeJS.ProcessEnv, dataDir: string, generate: boolean): string | undefined {
  const given = env.BILLING_WEBHOOK_SECRET;
  if (given !== undefined && given !== '') {
    if (PLACEHOLDER_SECRETS.has(given.trim().toLowerCase()) || given.length < 24) {
      throw new ConfigError('BILLING_WEBHOOK_SECRET must be a real secret of at least 24 characters');
    }
    return given;
  }
  if (!generate) return undefined;
  const file = path.join(dataDir, 'secrets.json');
  let stored: Record<string, string> = {};
  try {
    stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* first start */
  }
  if (stored.billingWebhookSecret) return stored.billingWebhookSecret;
  const secret = crypto.randomBytes(32).toString('hex');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...stored, billingWebhookSecret: secret }, null, 2), { mode: 0o600 });
  return secret;
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number: ${value}`);
  return n;
}

function requiredSecrets(env: NodeJS.ProcessEnv) {
  const problems: string[] = [];
  const pick = (name: string) => {
    const value = env[name] ?? '';
    if (PLACEHOLDER_SECRETS.has(value.trim().toLowerCase())) problems.push(`${name} must be set to a real secret`);
    else if (value.length < 24) problems.push(`${name} must be at least 24 characters`);
    return value;
  };
  const secretKey = pick('SECRET_KEY');
  const maintenanceToken = pick('MAINTENANCE_TOKEN');
  const serviceToken = pick('SERVICE_TOKEN');
  if (problems.length) throw new ConfigError(`Refusing to start in production: ${problems.join('; ')}`);
  return { secretKey, maintenanceToken, serviceToken };
}

/** A scaled role in development: the environment only (nothing generated, nothing written). */
function environmentSecrets(env: NodeJS.ProcessEnv) {
  const value = (name: string) => {
    const given = env[name]?.trim();
    if (!given) throw new ConfigError(`${name} must be set in the environment, the same in every server and worker`);
    return given;
  };
  return { secretKey: value('SECRET_KEY'), maintenanceToken: value('MAINTENANCE_TOKEN'), serviceToken: value('SERVICE_TOKEN') };
}

/** Development: environment first, else random values generated once and kept beside the data. */
function developmentSecrets(env: NodeJS.ProcessEnv, dataDir: string) {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Record<'secretKey' | 'maintenanceToken' | 'serviceToken', string>> = {};
  try {
    stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* first start */
  }
  const secretKey = env.SECRET_KEY || stored.secretKey || crypto.randomBytes(32).toString('hex');
  const maintenanceToken = env.MAINTENANCE_TOKEN || stored.maintenanceToken || crypto.randomBytes(20).toString('hex');
  const serviceToken = env.SERVICE_TOKEN || stored.serviceToken || crypto.randomBytes(24).toString('hex');
  if (stored.secretKey !== secretKey || stored.maintenanceToken !== maintenanceToken || stored.serviceToken !== serviceToken) {
    if (!env.SECRET_KEY || !env.MAINTENANCE_TOKEN || !env.SERVICE_TOKEN) {
      fs.mkdirSync(dataDir, { recursive: true });
      // Other kept secrets (the billing webhook key) stay.
      fs.writeFileSync(file, JSON.stringify({ ...stored, secretKey, maintenanceToken, serviceToken }, null, 2), { mode: 0o600 });
    }
  }
  return { secretKey, maintenanceToken, serviceToken };
}

export const GEOCODER_KINDS = ['nominatim', 'pelias'] as const;
export type GeocoderKind = (typeof GEOCODER_KINDS)[number];

function geocoder(value: string | undefined, kind: string | undefined): Config['geocoder'] {
  const url = value?.trim().replace(/\/+$/, '');
  const k = (kind?.trim().toLowerCase() || 'nominatim') as GeocoderKind;
  if (!GEOCODER_KINDS.includes(k)) throw new ConfigError(`GEOCODER_KIND must be one of ${GEOCODER_KINDS.join(', ')}: ${kind}`);
  if (!url) return undefined;
  if (!/^https?:\/\/[^\s]+$/i.test(url)) throw new ConfigError(`GEOCODER_URL must be an http(s) URL: ${url}`);
  return { url, kind: k };
}

function mapStyleUrl(value: string | undefined): string | undefined {
  const url = value?.trim();
  if (!url) return undefined;
  if (!/^(https?:\/\/[^\s]+|\/[^\s]*)$/i.test(url))
    throw new ConfigError(`MAP_STYLE_URL must be an http(s) URL or a path on this server: ${url}`);
  return url;
}
