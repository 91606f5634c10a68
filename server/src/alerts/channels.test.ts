import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderSmsProvider, pushChannel, smsChannel, type OutgoingNotice } from './channels.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alerts-channels-'));
const notice = (over: Partial<OutgoingNotice> = {}): OutgoingNotice => ({
  key: 'incident:7:user:3:push:first',
  notificationId: 11,
  channel: 'push',
  user: { id: 3, email: 'ann@demo.test', username: 'Ann', phone: '+15045550100' },
  incident: {
    id: 7,
    state: 'open',
    severity: 'critical',
    reason: 'Offline at 20 devices',
    site: 'Audubon Park',
    at: '2026-11-28T12:00:00.000Z',
    kind: 'raised',
  },
  subject: 'Critical: Offline at Audubon Park',
  text: 'Offline at 20 devices',
  url: 'http://portal.test/incidents/7',
  ...over,
});

/**
 * A local push service speaking the push protocol over HTTPS (RFC 8030: POST to the subscription's
 * endpoint, an encrypted aes128gcm body, TTL/Topic/Urgency headers, VAPID authorization of RFC 8292),
 * answering as the test says; web-push sends to it through an agent that trusts its certificate.
 */
describe('Web Push channel against a local push service', () => {
  let server: https.Server;
  let agent: https.Agent;
  let base = '';
  let status = 201;
  const received: { url: string; headers: import('node:http').IncomingHttpHeaders; body: Buffer }[] = [];
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@demo.test' };
  const browser = crypto.createECDH('prime256v1');
  browser.generateKeys();
  const keys = { p256dh: browser.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };

  beforeAll(async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
    server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    agent = new https.Agent({ ca: cert });
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends an encrypted, VAPID-signed message with a Topic from the key (a resend replaces it)', async () => {
    const forgotten: number[] = [];
    const channel = pushChannel({
      vapid,
      agent,
      subscriptions: async () => [{ id: 1, endpoint: `${base}/push/abc`, ...keys }],
      forget: async (id) => void forgotten.push(id),
    });
    expect(await channel.send(notice())).toBe('sent');
    expect(await channel.send(notice())).toBe('sent');
    expect(received).toHaveLength(2);
    const [first, second] = received;
    expect(first!.url).toBe('/push/abc');
    expect(first!.headers['content-encoding']).toBe('aes128gcm');
    expect(first!.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`));
    expect(first!.headers.urgency).toBe('high');
    expect(first!.headers.ttl).toBe(String(24 * 3600));
    expect(first!.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(second!.headers.topic).toBe(first!.headers.topic);
    // Encrypted: the reason is not readable on the wire.
    expect(first!.body.length).toBeGreaterThan(86);
    expect(first!.body.toString('utf8')).not.toContain('Offline');
    expect(forgotten).toEqual([]);
  });

  it('forgets a subscription the push service calls gone; skips a user without one or without VAPID keys', async () => {
    const forgotten: number[] = [];
    status = 410;
    const channel = pushChannel({
      vapid,
      agent,
      subscriptions: async () => [{ id: 9, endpoint: `${base}/push/gone`, ...keys }],
      forget: async (id) => void forgotten.push(id),
    });
    expect(await channel.send(notice())).toBe('skipped');
    expect(forgotten).toEqual([9]);
    status = 500;
    await expect(channel.send(notice())).rejects.toThrow();
    status = 201;
    expect(await pushChannel({ vapid, agent, subscriptions: async () => [], forget: async () => undefined }).send(notice())).toBe(
      'skipped',
    );
    expect(
      await pushChannel({
        vapid: undefined,
        subscriptions: async () => [{ id: 1, endpoint: `${base}/x`, ...keys }],
        forget: async () => undefined,
      }).send(notice()),
    ).toBe('skipped');
  });
});

describe('SMS channel, default provider', () => {
  it('one file per key: a repeated send rewrites it; no phone is skipped', async () => {
    const sms = path.join(dir, 'sms');
    const channel = smsChannel(folderSmsProvider(sms));
    expect(await channel.send(notice({ channel: 'sms' }))).toBe('sent');
    expect(await channel.send(notice({ channel: 'sms' }))).toBe('sent');
    const files = fs.readdirSync(sms);
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(sms, files[0]!), 'utf8')).toBe(
      'To: +15045550100\nKey: incident:7:user:3:push:first\n\nCritical: Offline at Audubon Park\nhttp://portal.test/incidents/7\n',
    );
    expect(await channel.send(notice({ channel: 'sms', user: { id: 3, email: 'a@b.c', username: 'A', phone: ' ' } }))).toBe(
      'skipped',
    );
  });
});
