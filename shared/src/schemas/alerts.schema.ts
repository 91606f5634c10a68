import { z } from 'zod';
import { requiredText, text } from './common.ts';
import { ALERT_CONDITIONS, SEVERITIES } from '../rules/alerts/settings.ts';
import { CHANNELS, minutesOfDay } from '../rules/alerts/matching.ts';
import { isTimeZone } from '../rules/telemetry.ts';

const id = z
  .number({ error: 'Must be a number.' })
  .int({ error: 'Must be a whole number.' })
  .positive({ error: 'Must be a positive number.' })
  .max(2_147_483_647, { error: 'No such id.' });

export const ruleScopeSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('all') }),
    z.object({ type: z.literal('brand'), id }),
    z.object({ type: z.literal('county'), id }),
    z.object({ type: z.literal('site'), id }),
  ],
  { error: "Must be {type: 'all'} or {type: 'brand' | 'county' | 'site', id}." },
);

const time = z
  .string({ error: 'Must be a time HH:mm.' })
  .refine((t) => minutesOfDay(t) !== null, { error: 'Must be a time HH:mm (00:00 to 23:59).' });

export const quietHoursSchema = z
  .object({
    from: time,
    to: time,
    timeZone: z
      .string({ error: 'Must be a time zone.' })
      .max(64)
      .refine(isTimeZone, { error: 'Must be an IANA time zone such as America/Chicago.' }),
  })
  .refine((q) => q.from !== q.to, { error: 'Quiet hours must start and end at different times.', path: ['to'] });

export const notificationRuleSchema = z.object({
  condition: z.enum(['ANY', ...ALERT_CONDITIONS], { error: `Unknown condition: one of ANY, ${ALERT_CONDITIONS.join(', ')}.` }),
  scope: ruleScopeSchema,
  channels: z
    .array(z.enum(CHANNELS, { error: `Unknown channel: one of ${CHANNELS.join(', ')}.` }), {
      error: 'Must be a list of channels.',
    })
    .min(1, { error: 'Choose at least one channel.' })
    .max(4),
  quietHours: quietHoursSchema.nullable().default(null),
  digest: z.boolean({ error: 'Must be true or false.' }).default(false),
});

export const escalationPolicySchema = z.object({
  afterMinutes: z.number({ error: 'Must be a number of minutes.' }).int().min(1, { error: 'At least 1 minute.' }).max(10_080),
  repeatMinutes: z.number({ error: 'Must be a number of minutes.' }).int().min(5, { error: 'At least 5 minutes.' }).max(10_080),
  steps: z
    .array(
      z.object({
        userId: id,
        channels: z
          .array(z.enum(CHANNELS, { error: `Unknown channel: one of ${CHANNELS.join(', ')}.` }))
          .min(1, { error: 'Choose at least one channel.' })
          .max(4),
      }),
    )
    .max(10),
});

/** PUT /api/v1/notificationRules: the caller's rules, and (distributors) their organisation's escalation policy. */
export const putNotificationRulesSchema = z.object({
  rules: z.array(notificationRuleSchema, { error: 'Must be a list of rules.' }).max(50, { error: 'At most 50 rules.' }),
  escalation: escalationPolicySchema.nullable().optional(),
});
export type PutNotificationRules = z.infer<typeof putNotificationRulesSchema>;

export const notificationRulesAnswerSchema = z.object({
  rules: z.array(notificationRuleSchema),
  /** The organisation's policy for a distributor; null for others. */
  escalation: escalationPolicySchema.nullable(),
  /** The distributors an escalation step may name (a distributor's organisation); empty for others. */
  members: z.array(z.object({ id: z.number(), name: z.string() })),
  /** What the caller's switches and phone allow (the form greys out what cannot be sent). */
  channels: z.object({ email: z.boolean(), sms: z.boolean(), push: z.boolean() }),
});
export type NotificationRulesAnswer = z.infer<typeof notificationRulesAnswerSchema>;

export const INCIDENT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

export const TIMELINE_KINDS = [
  'raised',
  'alert',
  'notified',
  'acknowledged',
  'escalated',
  'comment',
  'resolved',
  'reopened',
] as const;

export const timelineEntrySchema = z.object({
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  /** What happened in words ("Raised: Offline at SN-0001", "Notified Ann Lee by email"). */
  text: z.string(),
  by: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const incidentSchema = z.object({
  id: z.number(),
  state: z.enum(INCIDENT_STATES),
  severity: z.enum(SEVERITIES),
  condition: z.enum(ALERT_CONDITIONS),
  reason: z.string(),
  site: z.object({ id: z.number(), name: z.string(), address: z.string(), timezone_id: z.string().nullable() }).nullable(),
  serials: z.array(z.string()),
  openedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  timeline: z.array(timelineEntrySchema),
});
export type Incident = z.infer<typeof incidentSchema>;

export const incidentsQuerySchema = z.object({
  state: z.enum(INCIDENT_STATES, { error: 'Must be open, acknowledged or resolved.' }).optional(),
  severity: z.enum(SEVERITIES, { error: 'Must be critical, warning or info.' }).optional(),
  siteId: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export const resolveIncidentSchema = z.object({ note: requiredText(2000) });
export const commentIncidentSchema = z.object({ text: requiredText(2000) });

/** POST /api/v1/notifications/read: every in-app notice of the caller, or those of one incident. */
export const markNotificationsReadSchema = z.object({ incidentId: id.optional() });

/** The bell (GET /api/v1/notifications): in-app notices, newest first, and how many are unread. */
export const inboxSchema = z.object({
  unread: z.number(),
  items: z.array(z.object({ id: z.number(), incidentId: z.number(), kind: z.string(), at: z.string(), read: z.boolean() })),
});
export type Inbox = z.infer<typeof inboxSchema>;

/** GET /api/v1/pushSubscription: Web Push's public VAPID key, null when the server has no VAPID keys. */
export const pushKeySchema = z.object({ publicKey: z.string().nullable() });

/** A browser's Web Push subscription (PushSubscription.toJSON()), saved from Account Settings. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ error: 'Must be a URL.' }).max(2000),
  keys: z.object({ p256dh: text(200).pipe(z.string().min(1)), auth: text(100).pipe(z.string().min(1)) }),
});

/** The in-app notice of an incident (socket `incident:notified` to room user:{id}). */
export type IncidentNotice = {
  id: number;
  state: IncidentState;
  severity: (typeof SEVERITIES)[number];
  reason: string;
  site: string | null;
  at: string;
  kind: 'raised' | 'escalated' | 'reopened';
};
