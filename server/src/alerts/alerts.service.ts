import {
  commentIncidentSchema,
  defaultEscalation,
  incidentsQuerySchema,
  markNotificationsReadSchema,
  pushSubscriptionSchema,
  putNotificationRulesSchema,
  resolveIncidentSchema,
  type AlertSettings,
  type Inbox,
  type Incident,
  type NotificationRulesAnswer,
} from '@fleet/shared';
import type { z } from 'zod';
import { deviceScope, isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import type { AlertsRepository, IncidentRow, TimelineRow } from './alerts.repository.ts';
import { DEFAULT_RULES } from './alerts.engine.ts';

export type AlertsViewer = ScopeViewer & {
  username: string;
  company: string;
  phone: string;
  notifyEmail: boolean;
  notifyPhone: boolean;
};

export type AlertsServiceDeps = {
  repo: AlertsRepository;
  now: () => Date;
  settings: AlertSettings;
  /** Web Push's public VAPID key (the browser subscribes with it); undefined: push is not configured. */
  vapidPublicKey: string | undefined;
  /** Told after an incident was acknowledged or resolved (the dispatcher skips what is now late). */
  changed?: () => void;
};

const NOT_FOUND = 'No incident with this id.';
const MAX_ID = 2_147_483_647;

/**
 * A `{ "rules[0].scope": ["..."] }` body: the field named by its whole path, since a rule list has the
 * same field names in every rule (the house `fieldErrors` keeps the first segment only).
 */
function pathErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key =
      issue.path.reduce<string>(
        (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
        '',
      ) || 'non_field_errors';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

function parseWithPaths<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new ApiError(400, pathErrors(r.error));
  return r.data;
}

/** The distributors' organisation a user belongs to: their company, as one key. */
export const organisationOf = (company: string) => company.trim().toLowerCase();

/** The incident calls (issue 43): logic and access checks; SQL lives in the repository. */
export function alertsService(deps: AlertsServiceDeps) {
  const { repo } = deps;

  function toIncident(i: IncidentRow, timeline: TimelineRow[]): Incident {
    return {
      id: i.id,
      state: i.state,
      severity: i.severity,
      condition: i.condition,
      reason: i.reason,
      site:
        i.siteId === null
          ? null
          : { id: i.siteId, name: i.siteName ?? '', address: i.siteAddress ?? '', timezone_id: i.timezoneId },
      serials: i.serials,
      openedAt: i.openedAt.toISOString(),
      acknowledgedAt: i.acknowledgedAt?.toISOString() ?? null,
      acknowledgedBy: i.acknowledgedBy,
      resolvedAt: i.resolvedAt?.toISOString() ?? null,
      timeline: timeline
        .filter((t) => t.incidentId === i.id)
        .map((t) => ({ at: t.at.toISOString(), kind: t.kind as Incident['timeline'][number]['kind'], text: t.text, by: t.by })),
    };
  }

  async function answer(tx: AlertsRepository, viewer: ScopeViewer, id: number): Promise<Incident> {
    const [i] = await tx.incidents({ scope: deviceScope(viewer), viewerId: viewer.id, ids: [id] });
    if (!i) throw ApiError.notFound(NOT_FOUND);
    return toIncident(i, await tx.timelines([i.id]));
  }

  function incidentId(raw: unknown): number {
    const id = Number(raw);
    if (!Number.isInteger(id) || id < 1 || id > MAX_ID) throw ApiError.notFound(NOT_FOUND);
    return id;
  }

  /** A state change under the incident's row lock, in scope, answered with the incident as it is now. */
  async function change(
    viewer: ScopeViewer,
    rawId: unknown,
    fn: (tx: AlertsRepository, id: number, state: Incident['state']) => Promise<void>,
  ): Promise<Incident> {
    const id = incidentId(rawId);
    const result = await repo.transaction(async (tx) => {
      // Scope first: an incident outside the caller's devices is a 404, as if it did not exist.
      await answer(tx, viewer, id);
      const locked = await tx.lockIncident(id);
      if (!locked) throw ApiError.notFound(NOT_FOUND);
      await fn(tx, id, locked.state);
      return answer(tx, viewer, id);
    });
    deps.changed?.();
    return result;
  }

  return {
    /** GET /incidents?state=&severity=&siteId=: the caller's incidents in scope, unresolved first, newest first. */
    async list(viewer: ScopeViewer, query: unknown): Promise<Incident[]> {
      const q = parseWithPaths(incidentsQuerySchema, query ?? {});
      const rows = await repo.incidents({
        scope: deviceScope(viewer),
        viewerId: viewer.id,
        state: q.state,
        severity: q.severity,
        ...(q.siteId ? { siteId: q.siteId } : {}),
        limit: q.limit,
      });
      const timeline = await repo.timelines(rows.map((r) => r.id));
      return rows.map((r) => toIncident(r, timeline));
    },

    async one(viewer: ScopeViewer, rawId: unknown): Promise<Incident> {
      return answer(repo, viewer, incidentId(rawId));
    },

    /** Acknowledge: who and when; escalation stops. Acknowledging twice answers the incident as it is. */
    async acknowledge(viewer: AlertsViewer, rawId: unknown): Promise<Incident> {
      return change(viewer, rawId, async (tx, id, state) => {
        if (state === 'resolved') throw ApiError.badRequest('This incident is resolved.');
        if (state === 'acknowledged') return;
        const now = deps.now();
        await tx.updateIncident(id, { state: 'acknowledged', acknowledgedAt: now, acknowledgedBy: viewer.id });
        await tx.event(id, now, 'acknowledged', `Acknowledged by ${viewer.username}`, viewer.id);
        await tx.markRead(viewer.id, now, id);
      });
    },

    /** Resolve by hand, with a note (the timeline keeps it). */
    async resolve(viewer: AlertsViewer, rawId: unknown, body: unknown): Promise<Incident> {
      const { note } = parseWithPaths(resolveIncidentSchema, body ?? {});
      return change(viewer, rawId, async (tx, id, state) => {
        if (state === 'resolved') throw ApiError.badRequest('This incident is already resolved.');
        const now = deps.now();
        await tx.updateIncident(id, { state: 'resolved', resolvedAt: now, resolvedBy: viewer.id, resolvedByHand: true });
        await tx.event(id, now, 'resolved', `Resolved by ${viewer.username}: ${note}`, viewer.id);
        await tx.markRead(viewer.id, now, id);
      });
    },

    async comment(viewer: AlertsViewer, rawId: unknown, body: unknown): Promise<Incident> {
      const { text } = parseWithPaths(commentIncidentSchema, body ?? {});
      return change(viewer, rawId, async (tx, id) => {
        await tx.event(id, deps.now(), 'comment', text, viewer.id);
      });
    },

    async rules(viewer: AlertsViewer): Promise<NotificationRulesAnswer> {
      const rules = (await repo.rules(viewer.id)) ?? DEFAULT_RULES;
      const escalation = isDistributor(viewer)
        ? ((await repo.policy(organisationOf(viewer.company))) ?? defaultEscalation(deps.settings))
        : null;
      const members = isDistributor(viewer) ? await repo.organisationPeople(organisationOf(viewer.company)) : [];
      return {
        rules,
        escalation,
        members,
        channels: {
          email: viewer.notifyEmail,
          sms: viewer.notifyPhone && viewer.phone.trim() !== '',
          push: deps.vapidPublicKey !== undefined,
        },
      };
    },

    /**
     * PUT /notificationRules: the caller's rules replace theirs, all or nothing. 400 naming the field for
     * a scope outside the caller's devices, quiet hours that are not times, an unknown condition, SMS
     * without a phone; an escalation policy from anyone but a distributor, or naming someone outside the
     * organisation.
     */
    async saveRules(viewer: AlertsViewer, body: unknown): Promise<NotificationRulesAnswer> {
      const input = parseWithPaths(putNotificationRulesSchema, body ?? {});
      const errors: Record<string, string[]> = {};
      const scope = deviceScope(viewer);
      for (const [i, rule] of input.rules.entries()) {
        if (rule.scope.type !== 'all' && !(await repo.scopeExists(rule.scope.type, rule.scope.id, scope))) {
          errors[`rules[${i}].scope`] = [`This ${rule.scope.type} is not among your devices.`];
        }
        if (rule.channels.includes('sms') && !viewer.phone.trim()) {
          errors[`rules[${i}].channels`] = [
            'SMS needs a mobile phone number on your account: add one in Account Settings first.',
          ];
        }
      }
      if (input.escalation) {
        if (!isDistributor(viewer)) errors.escalation = ['Only distributors set an escalation policy.'];
        else {
          const members = new Set(await repo.organisationMembers(organisationOf(viewer.company)));
          for (const [i, step] of input.escalation.steps.entries()) {
            if (!members.has(step.userId))
              errors[`escalation.steps[${i}].userId`] = ['Choose a distributor of your organisation.'];
          }
        }
      }
      if (Object.keys(errors).length) throw new ApiError(400, errors);
      const now = deps.now();
      await repo.transaction(async (tx) => {
        await tx.saveRules(viewer.id, input.rules, now);
        if (input.escalation) await tx.savePolicy(organisationOf(viewer.company), input.escalation, viewer.id, now);
      });
      return this.rules(viewer);
    },

    /** The bell: in-app notices, newest first, and the unread count. */
    async inbox(viewer: ScopeViewer): Promise<Inbox> {
      const { unread, items } = await repo.inbox(viewer.id, 50);
      return { unread, items: items.map((n) => ({ ...n, at: n.at.toISOString() })) };
    },

    async markRead(viewer: ScopeViewer, body: unknown) {
      const { incidentId } = parseWithPaths(markNotificationsReadSchema, body ?? {});
      await repo.markRead(viewer.id, deps.now(), incidentId);
      return this.inbox(viewer);
    },

    pushKey() {
      return { publicKey: deps.vapidPublicKey ?? null };
    },

    async subscribePush(viewer: ScopeViewer, body: unknown) {
      if (!deps.vapidPublicKey) throw ApiError.badRequest('Web Push is not configured on this server.');
      const sub = parseWithPaths(pushSubscriptionSchema, body ?? {});
      await repo.savePushSubscription(viewer.id, sub);
      return { detail: 'Push notifications are on for this browser.' };
    },
  };
}
export type AlertsService = ReturnType<typeof alertsService>;
