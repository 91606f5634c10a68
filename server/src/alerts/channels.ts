import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Agent } from 'node:https';
import path from 'node:path';
import webpush from 'web-push';
import type { Channel, IncidentNotice } from '@fleet/shared';

/** One notification on its way out: whom, what, and the key that makes a second send the same send. */
export type OutgoingNotice = {
  /** The notification row's idempotency key (incident, recipient, channel, kind). */
  key: string;
  notificationId: number;
  channel: Channel;
  user: { id: number; email: string; username: string; phone: string };
  incident: IncidentNotice;
  subject: string;
  text: string;
  /** The incident in the portal. */
  url: string;
};

/**
 * Every channel behind one interface. 'sent' once the channel has it (the mail outbox, the SMS folder,
 * the push service, the user's sockets); 'skipped' when it cannot reach this user at all (no browser
 * subscribed to push, push not configured); a throw is retried with backoff by the dispatcher.
 */
export interface AlertChannel {
  send(n: OutgoingNotice): Promise<'sent' | 'skipped'>;
}

/** In-app: `incident:notified` to the user's sockets (room user:{id}); the incident list holds it anyway. */
export function inAppChannel(
  emitToUser: (userId: number, payload: IncidentNotice & { notificationId: number }) => void,
): AlertChannel {
  return {
    async send(n) {
      emitToUser(n.user.id, { ...n.incident, notificationId: n.notificationId });
      return 'sent';
    },
  };
}

/**
 * Email through the mail outbox (server/src/mail/outbox.ts) under the notification's key: the outbox row
 * and the job ledger keep a dispatch repeated after a crash from mailing twice.
 */
export function emailChannel(queue: {
  enqueue(name: 'alert-notice', payload: unknown, o: { idempotencyKey: string }): Promise<void>;
}): AlertChannel {
  return {
    async send(n) {
      await queue.enqueue(
        'alert-notice',
        { to: n.user.email, subject: n.subject, text: `${n.text}\n\n${n.url}` },
        { idempotencyKey: `alert:${n.key}` },
      );
      return 'sent';
    },
  };
}

/** Sends a text message. A real provider (an SMS gateway's API) implements the same call. */
export interface SmsProvider {
  send(m: { to: string; text: string; key: string }): Promise<void>;
}

/**
 * The default SMS provider: each message a .txt file in a folder, as the mail's default writes .eml files
 * (no SMS gateway is configured in development or tests). Named by its key and written by rename, so a
 * repeated send rewrites the same file rather than adding a second message.
 */
export function folderSmsProvider(dir: string): SmsProvider & { dir: string } {
  return {
    dir,
    async send(m) {
      await fs.promises.mkdir(dir, { recursive: true });
      const name = crypto.createHash('sha256').update(m.key).digest('hex').slice(0, 32);
      const file = path.join(dir, `${name}.txt`);
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.promises.writeFile(tmp, `To: ${m.to}\nKey: ${m.key}\n\n${m.text}\n`);
      await fs.promises.rename(tmp, file);
    },
  };
}

export function smsChannel(provider: SmsProvider): AlertChannel {
  return {
    async send(n) {
      if (!n.user.phone.trim()) return 'skipped';
      // An SMS is short: the reason and the link.
      await provider.send({ to: n.user.phone, text: `${n.subject}\n${n.url}`.slice(0, 320), key: n.key });
      return 'sent';
    },
  };
}

export type PushSubscriptionRow = { id: number; endpoint: string; p256dh: string; auth: string };

/**
 * Web Push (RFC 8030 with VAPID, RFC 8292) through the `web-push` package, to every browser the user
 * subscribed from Account Settings. The push `Topic` is derived from the key: a message sent again after a
 * crash replaces the undelivered first one at the push service instead of arriving twice. A subscription
 * the push service calls gone (404, 410) is forgotten.
 */
export function pushChannel(opts: {
  vapid: { publicKey: string; privateKey: string; subject: string } | undefined;
  subscriptions: (userId: number) => Promise<PushSubscriptionRow[]>;
  forget: (id: number) => Promise<void>;
  /** An HTTPS agent (tests: one trusting the local push service's certificate). */
  agent?: Agent;
  log?: (m: string, e?: unknown) => void;
}): AlertChannel {
  return {
    async send(n) {
      if (!opts.vapid) return 'skipped';
      const subs = await opts.subscriptions(n.user.id);
      if (!subs.length) return 'skipped';
      const topic = crypto.createHash('sha256').update(n.key).digest('base64url').slice(0, 32);
      const payload = JSON.stringify({
        title: n.subject,
        body: n.incident.reason,
        url: n.url,
        incidentId: n.incident.id,
        tag: `incident-${n.incident.id}`,
      });
      let delivered = 0;
      let lastError: unknown;
      for (const s of subs) {
        try {
          await webpush.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload, {
            vapidDetails: opts.vapid,
            TTL: 24 * 3600,
            topic,
            urgency: n.incident.severity === 'critical' ? 'high' : 'normal',
            ...(opts.agent ? { agent: opts.agent } : {}),
          });
          delivered++;
        } catch (err) {
          const status = (err as { statusCode?: number }).statusCode;
          if (status === 404 || status === 410) await opts.forget(s.id);
          else lastError = err;
        }
      }
      if (delivered) return 'sent';
      if (lastError) throw lastError;
      return 'skipped';
    },
  };
}

export type ChannelSet = Record<Channel, AlertChannel>;
