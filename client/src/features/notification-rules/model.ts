import { alertsApi, brandsApi, sitesApi, type NotificationRulesAnswer, type PutNotificationRules } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { fetchNotificationRulesFx, saveNotificationRulesFx } from '../../entities/incident';
import { sessionEnded } from '../../entities/session';
import { z } from 'zod';
import { call, createApiFx, failureMessage, fieldMessages } from '../../shared/api';

/**
 * Notification rules and, for distributors, the organisation's escalation policy (issue 43), in Account
 * Settings: read when the section shows, edited as a draft, saved whole (PUT /notificationRules). A 400
 * names each field by its path (`rules[0].scope`): the message is shown beside that control. Web Push is
 * turned on from here for this browser: a service worker of its own (public/push-sw.js, scope /push/,
 * which controls no page: the field app's /maintenance worker is untouched) subscribes with the server's
 * VAPID key.
 */
export type Rule = PutNotificationRules['rules'][number];
export type Escalation = NonNullable<NotificationRulesAnswer['escalation']>;
export type Draft = { rules: Rule[]; escalation: Escalation | null };
export type ScopeOptions = { brand: Option[]; county: Option[]; site: Option[] };
type Option = { id: number; name: string };

export const rulesShown = createEvent();
export const ruleAdded = createEvent();
export const ruleRemoved = createEvent<number>();
export const ruleChanged = createEvent<{ index: number; rule: Rule }>();
export const escalationChanged = createEvent<Escalation>();
export const saveClicked = createEvent();
export const pushClicked = createEvent();

export const NEW_RULE: Rule = { condition: 'ANY', scope: { type: 'all' }, channels: ['inApp'], quietHours: null, digest: false };

/**
 * What the scope choices read of the county and site lists (their calls declare no answer schema yet, so the
 * answer is checked here rather than cast).
 */
const placesAnswer = z.array(z.object({ id: z.number(), name: z.string().nullish(), address: z.string().nullish() }));

/** The brands, counties and sites a rule may listen to: the caller's own (the server checks again on save). */
export const fetchScopeOptionsFx = createApiFx(async (): Promise<ScopeOptions> => {
  const [brands, counties, sites] = await Promise.all([
    call(brandsApi.list),
    call(sitesApi.counties).then((answer) => placesAnswer.parse(answer)),
    call(sitesApi.deviceGroups).then((answer) => placesAnswer.parse(answer)),
  ]);
  const byName = (a: Option, b: Option) => a.name.localeCompare(b.name);
  return {
    brand: brands.map((b) => ({ id: b.id, name: b.name })).sort(byName),
    county: counties.map((c) => ({ id: c.id, name: c.name || `County ${c.id}` })).sort(byName),
    site: sites.map((s) => ({ id: s.id, name: s.name || s.address || `Site ${s.id}` })).sort(byName),
  };
});

/** A subscription's JSON as the server takes it: a browser that leaves out its endpoint or keys is told so. */
function pushSubscriptionOf({ endpoint, keys }: PushSubscriptionJSON) {
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error('This browser gave an incomplete push subscription.');
  return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** This browser's push subscription, sent to the server: each refusal said in words. */
export const enablePushFx = createEffect(async (): Promise<string> => {
  if (!('serviceWorker' in navigator) || !('PushManager' in window))
    throw new Error('This browser cannot receive push notifications.');
  const { publicKey } = await call(alertsApi.pushKey);
  if (!publicKey) throw new Error('Web Push is not configured on this server.');
  const registration = await navigator.serviceWorker.register('/push-sw.js', { scope: '/push/' });
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site in the browser.');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(publicKey) }));
  const { detail } = await call(alertsApi.subscribePush, { body: pushSubscriptionOf(subscription.toJSON()) });
  return detail;
});

/** A VAPID public key (base64url) as the bytes PushManager.subscribe takes. */
export function base64UrlBytes(key: string): Uint8Array<ArrayBuffer> {
  const base64 = (key + '='.repeat((4 - (key.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const draftOf = (answer: NotificationRulesAnswer): Draft => ({ rules: answer.rules, escalation: answer.escalation });

export const $draft = createStore<Draft>({ rules: [], escalation: null })
  .on(fetchNotificationRulesFx.doneData, (_, answer) => draftOf(answer))
  .on(saveNotificationRulesFx.doneData, (_, answer) => draftOf(answer))
  .on(ruleAdded, (d) => ({ ...d, rules: [...d.rules, NEW_RULE] }))
  .on(ruleRemoved, (d, index) => ({ ...d, rules: d.rules.filter((_, i) => i !== index) }))
  .on(ruleChanged, (d, { index, rule }) => ({ ...d, rules: d.rules.map((r, i) => (i === index ? rule : r)) }))
  .on(escalationChanged, (d, escalation) => ({ ...d, escalation }))
  .reset(sessionEnded);
export const $members = createStore<Option[]>([])
  .on(fetchNotificationRulesFx.doneData, (_, a) => a.members)
  .on(saveNotificationRulesFx.doneData, (_, a) => a.members);
export const $allowed = createStore<NotificationRulesAnswer['channels']>({ email: false, sms: false, push: false })
  .on(fetchNotificationRulesFx.doneData, (_, a) => a.channels)
  .on(saveNotificationRulesFx.doneData, (_, a) => a.channels);
export const $scopeOptions = createStore<ScopeOptions>({ brand: [], county: [], site: [] }).on(
  fetchScopeOptionsFx.doneData,
  (_, o) => o,
);
export const $status = createStore<'loading' | 'ready' | 'failed'>('loading')
  .on(fetchNotificationRulesFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(fetchNotificationRulesFx.done, () => 'ready')
  .on(fetchNotificationRulesFx.fail, () => 'failed');
/** A 400's messages by field path (`rules[0].scope`, `escalation.steps[1].userId`). */
export const $errors = createStore<Record<string, string>>({})
  .on(saveNotificationRulesFx.failData, (_, error) => fieldMessages(error))
  .reset(saveNotificationRulesFx, rulesShown);
export const $saveAnswer = createStore<{ ok: boolean; text: string } | null>(null)
  .on(saveNotificationRulesFx.done, () => ({ ok: true, text: 'Notification rules saved.' }))
  .on(saveNotificationRulesFx.failData, (_, error) => ({
    ok: false,
    text: Object.keys(fieldMessages(error)).length ? 'Not saved: see the messages beside the fields.' : failureMessage(error),
  }))
  .reset(saveNotificationRulesFx, rulesShown, ruleAdded, ruleRemoved, ruleChanged, escalationChanged);
export const $saving = saveNotificationRulesFx.pending;
export const $pushAnswer = createStore<{ ok: boolean; text: string } | null>(null)
  .on(enablePushFx.doneData, (_, text) => ({ ok: true, text }))
  .on(enablePushFx.failData, (_, error) => ({ ok: false, text: failureMessage(error) }))
  .reset(enablePushFx, rulesShown);
export const $pushPending = enablePushFx.pending;

sample({ clock: rulesShown, target: [fetchNotificationRulesFx, fetchScopeOptionsFx] });
sample({
  clock: saveClicked,
  source: { draft: $draft, saving: $saving },
  filter: ({ saving }) => !saving,
  fn: ({ draft }): PutNotificationRules => ({
    rules: draft.rules,
    ...(draft.escalation ? { escalation: draft.escalation } : {}),
  }),
  target: saveNotificationRulesFx,
});
sample({ clock: pushClicked, filter: enablePushFx.pending.map((p) => !p), target: enablePushFx });
