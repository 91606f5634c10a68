import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientUserSchema,
  signUpDecisionAnswerSchema,
  userAccountSchema,
  type ClientUser,
  type UserAccount,
} from '@fleet/shared';
import { users } from '../../server/src/db/schema.ts';
import { enqueueSummaries } from '../../server/src/jobs/report-schedules.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { mailText } from '../helpers/smtp.ts';

const BACKENDS = await backends();

const DISTRIBUTOR = 'distributor@demo.test';
const CLIENT = 'client@demo.test';
const PARTNER = 'partner@demo.test';

/** GET /api/v1/myUser: the clients the brand dialog's slots offer (spec section 7). */
describe.each(BACKENDS)('GET /api/v1/myUser on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of [DISTRIBUTOR, CLIENT, PARTNER]) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
    }
    // The seed has no activated client without a brand: two of one company (name order, any case), and
    // a client-role market partner and a pending client sign-up that must not be offered.
    const row = (email: string, username: string, over: Partial<typeof users.$inferInsert> = {}) =>
      ({
        email,
        username,
        passwordHash: 'x',
        company: 'Aardvark Amusements',
        phone: '+1 504 555 0199',
        role: 'client',
        userType: 'client',
        activated: true,
        ...over,
      }) as typeof users.$inferInsert;
    await h.database.db
      .insert(users)
      .values([
        row('zoe@aardvark.test', 'Zoe Zed'),
        row('adam@aardvark.test', 'adam apple', { phone: '' }),
        row('mp-client@aardvark.test', 'Mo Partner', { userType: 'market-partner' }),
        row('pending@aardvark.test', 'Pat Pending', { activated: false }),
      ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (email?: string) => {
    const r = request(h.app).get('/api/v1/myUser');
    return email ? r.set({ Authorization: `Token ${keys[email]}` }) : r;
  };

  it('answers a distributor every activated client with its brands, by company then name', async () => {
    const res = await get(DISTRIBUTOR);
    expect(res.status).toBe(200);
    const list = clientUserSchema.array().parse(res.body) as ClientUser[];
    expect(list.map((u) => u.email)).toEqual([
      'adam@aardvark.test',
      'zoe@aardvark.test',
      'client@demo.test',
      'client2@demo.test',
    ]);
    const by = (email: string) => list.find((u) => u.email === email)!;
    expect(by('adam@aardvark.test')).toMatchObject({ name: 'adam apple', company: 'Aardvark Amusements', phone: '', brands: [] });
    expect(by('zoe@aardvark.test').brands).toEqual([]);
    expect(by('client@demo.test')).toMatchObject({
      name: 'Chris Client',
      company: 'Crescent City Parks',
      phone: '+1 504 555 0101',
    });
    expect(by('client@demo.test').brands.map((b) => b.name)).toEqual(['Gulf Shield SPF', 'SunStop']);
    expect(by('client2@demo.test').brands.map((b) => b.name)).toEqual(['Bayou Clean', 'Gulf Shield SPF']);
    const [client] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, CLIENT));
    expect(by(CLIENT).id).toBe(client!.id);
    // The seed's deactivated client (overdue invoice) is not offered either.
    expect(list.some((u) => u.email === 'overdue@demo.test')).toBe(false);
  });

  it('refuses a client and a market partner (403), and a call without a token (401)', async () => {
    expect((await get(CLIENT)).status).toBe(403);
    expect((await get(PARTNER)).status).toBe(403);
    expect((await get()).status).toBe(401);
  });
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PHP = Buffer.from('<?php echo shell_exec($_GET["c"]); ?>\n');

/**
 * Sign-up requests, their decisions and account edits (spec sections 2, 4, 6 and 7): each call for each
 * role, the whole path from POST /auth/users/ to a mail at the SMTP server and a sign-in (or a refusal).
 */
describe.each(BACKENDS)('sign-up requests and account edits on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  const drain = () => (h.app as unknown as { queue: { drain(): Promise<void> } }).queue.drain();
  const login = (email: string, password = 'Demo1234') => request(h.app).post('/auth/token/login/').send({ email, password });
  const as = (email: string) => ({ Authorization: `Token ${keys[email]}` });
  const mailsTo = (email: string) => h.smtp.received.filter((m) => m.to.includes(email)).map((m) => mailText(m.raw));
  const signUp = (email: string, username: string) =>
    request(h.app)
      .post('/auth/users/')
      .send({
        email,
        username,
        password: 'Secret123',
        company: `${username} Co`,
        phone: '+1 225 555 0150',
        isEnableNotificationEmail: true,
      });
  const pending = async () => (await request(h.app).get('/api/v1/get_pending_user').set(as(DISTRIBUTOR))).body as UserAccount[];

  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of [DISTRIBUTOR, CLIENT, PARTNER]) keys[email] = (await login(email)).body.auth_token;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists only sign-up requests, oldest first, to distributors only', async () => {
    const res = await request(h.app).get('/api/v1/get_pending_user').set(as(DISTRIBUTOR));
    expect(res.status).toBe(200);
    const list = userAccountSchema.array().parse(res.body);
    expect(list.map((u) => u.email)).toEqual(['signup1@demo.test', 'signup2@demo.test']);
    expect(list[0]).toMatchObject({
      name: 'Jordan Pelican',
      company: 'Pelican Outfitters',
      type: 'Client',
      activated: false,
      rejected: false,
    });
    // The account deactivated for an overdue invoice is not a sign-up request.
    expect(list.some((u) => u.email === 'overdue@demo.test')).toBe(false);
    expect((await request(h.app).get('/api/v1/get_pending_user').set(as(CLIENT))).status).toBe(403);
    expect((await request(h.app).get('/api/v1/get_pending_user').set(as(PARTNER))).status).toBe(403);
    expect((await request(h.app).get('/api/v1/get_pending_user')).status).toBe(401);
  });

  it('sign-up -> listed -> edited -> activated -> mail at the SMTP server -> the person signs in as a client', async () => {
    const email = 'ada.approve@signup.test';
    expect((await signUp(email, 'Ada Approve')).status).toBe(201);
    expect((await login(email, 'Secret123')).body).toMatchObject({ code: 'sign_up_pending' });
    expect((await pending()).map((u) => u.email)).toContain(email);

    const edited = await request(h.app)
      .post(`/api/v1/editUser/${email}`)
      .set(as(DISTRIBUTOR))
      .field('company', 'Approve & Sons')
      .field('isEnableNotificationEmail', 'None')
      .field('isEnableNotificationPhone', 'True');
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      company: 'Approve & Sons',
      is_enable_notification_email: true,
      is_enable_notification_phone: true,
      activated: false,
    });

    // Clients and partners cannot decide; nothing changes.
    expect((await request(h.app).post(`/api/v1/activeUser/${email}`).set(as(CLIENT))).status).toBe(403);
    expect((await request(h.app).post(`/api/v1/activeUser/${email}`).set(as(PARTNER))).status).toBe(403);

    const before = h.smtp.received.length;
    const res = await request(h.app).post(`/api/v1/activeUser/${email}`).set(as(DISTRIBUTOR));
    expect(res.status).toBe(200);
    expect(signUpDecisionAnswerSchema.parse(res.body)).toMatchObject({
      detail: `${email} has been activated!`,
      already: false,
      user: { type: 'Client', activated: true },
    });
    // Asked twice (a double click, a retry): the same answer, one mail.
    expect((await request(h.app).post(`/api/v1/activeUser/${email.toUpperCase()}`).set(as(DISTRIBUTOR))).body).toMatchObject({
      detail: `${email} has been activated!`,
      already: true,
    });
    await drain();
    expect(h.smtp.received.length).toBe(before + 1);
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Subject: Your account has been activated');
    expect(mails[0]).toContain('Sign in with your email and password at http://portal.test/');

    expect((await pending()).map((u) => u.email)).not.toContain(email);
    const signedIn = await login(email, 'Secret123');
    expect(signedIn.status).toBe(200);
    const me = await request(h.app)
      .get('/api/v1/user')
      .set({ Authorization: `Token ${signedIn.body.auth_token}` });
    expect(me.body).toMatchObject({ email, access: 'client', company: 'Approve & Sons' });
    // Now a client account: the brand dialog offers it, and it cannot open the distributor's calls.
    const clients = (await request(h.app).get('/api/v1/myUser').set(as(DISTRIBUTOR))).body as ClientUser[];
    expect(clients.map((c) => c.email)).toContain(email);
    expect(
      (
        await request(h.app)
          .get('/api/v1/get_pending_user')
          .set({ Authorization: `Token ${signedIn.body.auth_token}` })
      ).status,
    ).toBe(403);
  });

  it('sign-up -> rejected -> mail at the SMTP server -> sign-in refused with a reason; never listed again', async () => {
    const email = 'rex.reject@signup.test';
    expect((await signUp(email, 'Rex Reject')).status).toBe(201);
    const res = await request(h.app).post(`/api/v1/rejectUser/${email}`).set(as(DISTRIBUTOR));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      detail: `${email} has been rejected!`,
      already: false,
      user: { rejected: true, activated: false },
    });
    expect((await request(h.app).post(`/api/v1/rejectUser/${email}`).set(as(DISTRIBUTOR))).body.already).toBe(true);
    await drain();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Subject: Your sign-up request was not approved');

    const refused = await login(email, 'Secret123');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      detail: 'Your sign-up request was not approved. Please contact your distributor.',
      code: 'sign_up_rejected',
    });
    // A wrong password still reads as wrong credentials: the reason is told only to the owner.
    expect((await login(email, 'Wrong1234')).status).toBe(400);
    expect((await pending()).map((u) => u.email)).not.toContain(email);
    // The email stays taken; a distributor can no longer edit the refused request.
    expect((await signUp(email, 'Rex Again')).status).toBe(400);
    expect((await request(h.app).post(`/api/v1/editUser/${email}`).set(as(DISTRIBUTOR)).field('phone', '1')).status).toBe(403);
    expect((await request(h.app).post(`/api/v1/rejectUser/${email}`).set(as(CLIENT))).status).toBe(403);
  });

  it('refuses decisions on what is not a sign-up request', async () => {
    expect((await request(h.app).post('/api/v1/activeUser/overdue@demo.test').set(as(DISTRIBUTOR))).status).toBe(400);
    expect((await request(h.app).post('/api/v1/rejectUser/client@demo.test').set(as(DISTRIBUTOR))).status).toBe(400);
    expect((await request(h.app).post('/api/v1/activeUser/nobody@demo.test').set(as(DISTRIBUTOR))).status).toBe(404);
    expect((await request(h.app).post('/api/v1/rejectUser/not-an-email').set(as(DISTRIBUTOR))).status).toBe(404);
    const [overdue] = await h.database.db.select().from(users).where(eq(users.email, 'overdue@demo.test'));
    expect(overdue!.activated).toBe(false);
  });

  it('Account Settings: everyone edits their own account; the flags decide the scheduled mails', async () => {
    for (const email of [CLIENT, PARTNER, DISTRIBUTOR]) {
      const res = await request(h.app)
        .post(`/api/v1/editUser/${email}`)
        .set(as(email))
        .field('username', 'Renamed Person')
        .field('phone', '+1 504 555 0177')
        .field('isEnableNotificationWeeklyReport', 'True')
        .field('isEnableNotificationDailyDispensation', 'False')
        .field('isEnableNotificationEmail', 'None');
      expect(res.status, email).toBe(200);
      expect(userAccountSchema.parse(res.body)).toMatchObject({
        email,
        name: 'Renamed Person',
        phone: '+1 504 555 0177',
        is_enable_notification_weekly_report: true,
        is_enable_notification_daily_dispensation: false,
      });
      const [saved] = await h.database.db.select().from(users).where(eq(users.email, email));
      expect(saved).toMatchObject({ username: 'Renamed Person', notifyWeeklyReport: true, notifyDailyDispensation: false });
    }
    // The switches are what the schedules read: these three now get the weekly mail and not the daily one.
    const recipients = async (period: 'daily' | 'weekly') => {
      const to: string[] = [];
      const queue = {
        enqueue: async (_name: string, payload: unknown) => void to.push((payload as { to: string }).to),
        drain: async () => undefined,
        close: async () => undefined,
      };
      await enqueueSummaries(h.database.db, queue, period, new Date());
      return to;
    };
    expect(await recipients('weekly')).toEqual(expect.arrayContaining([CLIENT, PARTNER, DISTRIBUTOR]));
    const daily = await recipients('daily');
    for (const email of [CLIENT, PARTNER, DISTRIBUTOR]) expect(daily).not.toContain(email);
  });

  it('a client or partner edits only itself (403), an unknown email is 404, a distributor not another distributor', async () => {
    const post = (who: string, target: string) =>
      request(h.app).post(`/api/v1/editUser/${target}`).set(as(who)).field('phone', '+1 000');
    expect((await post(CLIENT, 'client2@demo.test')).status).toBe(403);
    expect((await post(CLIENT, 'signup2@demo.test')).status).toBe(403);
    expect((await post(PARTNER, CLIENT)).status).toBe(403);
    expect((await post(CLIENT, 'nobody@demo.test')).status).toBe(404);
    expect((await post(DISTRIBUTOR, PARTNER)).status).toBe(403);
    expect((await post(DISTRIBUTOR, 'client2@demo.test')).status).toBe(200);
    const [client2] = await h.database.db.select().from(users).where(eq(users.email, 'client2@demo.test'));
    expect(client2!.phone).toBe('+1 000');
    const [signup2] = await h.database.db.select().from(users).where(eq(users.email, 'signup2@demo.test'));
    expect(signup2!.phone).toBe('');
  });

  it('answers field messages for bad input, saving nothing', async () => {
    const res = await request(h.app)
      .post(`/api/v1/editUser/${CLIENT}`)
      .set(as(CLIENT))
      .field('username', ' ')
      .field('isEnableNotificationPhone', 'maybe')
      .field('company', 'Half Saved');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      username: ['This field may not be blank.'],
      isEnableNotificationPhone: ['Must be True, False or None.'],
    });
    const [client] = await h.database.db.select().from(users).where(eq(users.email, CLIENT));
    expect(client!.company).not.toBe('Half Saved');
  });

  it('takes a profile image by content: a PHP file named .png is refused, a PNG is stored, served and removable', async () => {
    const php = await request(h.app)
      .post(`/api/v1/editUser/${CLIENT}`)
      .set(as(CLIENT))
      .attach('image', PHP, { filename: 'avatar.png', contentType: 'image/png' });
    expect(php.status).toBe(400);
    expect(php.body).toEqual({ image: ['Upload a PNG, JPEG, GIF or WebP image.'] });
    const profilesDir = path.join(h.config.dataDir, 'uploads', 'profiles');
    const files = () => (fs.existsSync(profilesDir) ? fs.readdirSync(profilesDir) : []);
    expect(files()).toEqual([]);

    const ok = await request(h.app)
      .post(`/api/v1/editUser/${CLIENT}`)
      .set(as(CLIENT))
      .attach('image', PNG, { filename: 'me.gif', contentType: 'image/gif' });
    expect(ok.status).toBe(200);
    expect(ok.body.profile_url).toMatch(/^\/uploads\/profiles\/[0-9a-f]{32}\.png$/);
    const served = await request(h.app).get(ok.body.profile_url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await request(h.app).get('/api/v1/user').set(as(CLIENT))).body.profile_url).toBe(ok.body.profile_url);

    // A second image replaces the first file; isRemoveImage 'True' removes the last.
    const again = await request(h.app).post(`/api/v1/editUser/${CLIENT}`).set(as(CLIENT)).attach('image', PNG, 'me.png');
    expect(files()).toEqual([path.basename(again.body.profile_url)]);
    const removed = await request(h.app).post(`/api/v1/editUser/${CLIENT}`).set(as(CLIENT)).field('isRemoveImage', 'True');
    expect(removed.body.profile_url).toBeNull();
    expect(files()).toEqual([]);
  });

  it('documents every user call in the OpenAPI document', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    for (const [p, m] of [
      ['/api/v1/get_pending_user', 'get'],
      ['/api/v1/editUser/{email}', 'post'],
      ['/api/v1/activeUser/{email}', 'post'],
      ['/api/v1/rejectUser/{email}', 'post'],
    ] as const) {
      expect(doc.paths[p]?.[m], `${m} ${p}`).toBeDefined();
    }
  });
});
