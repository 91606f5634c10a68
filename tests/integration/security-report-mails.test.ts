import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportEmails } from '../../server/src/db/schema.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { confirmationPath, confirmRecipients } from '../helpers/report-recipients.ts';
import { mailText } from '../helpers/smtp.ts';

/**
 * Promise (issue 42: a client had mailed 20 reports to a stranger's address): an address added to an Email
 * List for Report gets one confirmation mail (at most one a day per address, whoever adds it) and no report
 * before its link is opened; reports skip unconfirmed recipients and say so; a user sends at most 30 report
 * mails an hour (429, Retry-After). Recipients listed before the change count as confirmed (migration 0018;
 * the demo's are seeded so). Mails are read at the harness's SMTP server.
 */
const range = { startDate: '2026-03-01', endDate: '2026-03-08' };
const drain = (app: unknown) => (app as { queue: { drain(): Promise<void> } }).queue.drain();

describe('report recipients confirm first; report mails are throttled', () => {
  let h: Harness;
  const key: Record<string, string> = {};
  const as = (who: string) => ({
    get: (path: string) => request(h.app).get(`/api/v1${path}`).set('Authorization', `Token ${key[who]}`),
    post: (path: string, body: unknown) =>
      request(h.app)
        .post(`/api/v1${path}`)
        .set('Authorization', `Token ${key[who]}`)
        .send(body as object),
  });
  const mailsTo = (email: string) => h.smtp.received.filter((m) => m.to.includes(email));
  const reportsTo = (email: string) => mailsTo(email).filter((m) => !/Confirm to receive/.test(m.raw));
  const settle = async () => {
    await drain(h.app);
    await new Promise((r) => setTimeout(r, 300));
  };

  beforeAll(async () => {
    h = await startHarness('pglite');
    for (const who of ['client', 'distributor', 'partner']) {
      key[who] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  it("the sweep's case: a stranger added to a client's list gets one confirmation mail and no report until it confirms", async () => {
    const added = await as('client').post('/addEmail', { email: 'stranger@elsewhere.test', name: 'Stranger' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ email: 'stranger@elsewhere.test', is_enable: true, confirmed: false });
    await settle();
    const [confirmation, ...more] = mailsTo('stranger@elsewhere.test');
    expect(more).toEqual([]);
    const text = mailText(confirmation!.raw);
    // It says who asked, and the link is the only thing it takes.
    expect(text).toContain('client@demo.test');
    expect(text).toMatch(/http:\/\/portal\.test\/api\/v1\/confirmReportEmail\/[0-9a-f]{48}/);

    // Twenty reports asked for: each refused (the only recipient has not confirmed), saying so; no report mailed.
    const [serial] = (await as('client').get('/device')).body.map((d: { serial: string }) => d.serial);
    for (let i = 0; i < 20; i++) {
      const res = await as('client').post('/emailReport', {
        deviceSerials: [serial],
        ...range,
        emails: ['stranger@elsewhere.test'],
      });
      expect(res.status).toBe(400);
      expect(res.body.emails[0]).toMatch(/^No report sent: stranger@elsewhere\.test has not confirmed yet\./);
    }
    await settle();
    // Still the one confirmation mail: asked again at most once a day.
    expect(mailsTo('stranger@elsewhere.test')).toHaveLength(1);

    // With a confirmed recipient beside it, the report goes to that one only, and the answer names the skipped one.
    const mixed = await as('client').post('/emailReport', {
      deviceSerials: [serial],
      ...range,
      emails: ['parks@demo.test', 'stranger@elsewhere.test'],
    });
    expect(mixed.status).toBe(202);
    expect(mixed.body.jobs.map((j: { email: string }) => j.email)).toEqual(['parks@demo.test']);
    expect(mixed.body.unconfirmed).toEqual(['stranger@elsewhere.test']);
    await settle();
    expect(reportsTo('stranger@elsewhere.test')).toHaveLength(0);
    expect(reportsTo('parks@demo.test')).toHaveLength(1);

    // The list says which are confirmed: the seeded one is (it was there before), the stranger not yet.
    const list = (await as('client').get('/email')).body as { email: string; confirmed: boolean }[];
    expect(Object.fromEntries(list.map((e) => [e.email, e.confirmed]))).toMatchObject({
      'parks@demo.test': true,
      'stranger@elsewhere.test': false,
    });
  });

  it('the confirmation link confirms, without any other credential, once; then reports reach the address', async () => {
    const path = confirmationPath(h.smtp.received, 'stranger@elsewhere.test')!;
    const page = await request(h.app).get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('stranger@elsewhere.test is confirmed');
    // Used once: the same link again, or a made-up token, confirms nothing.
    expect((await request(h.app).get(path)).status).toBe(404);
    expect((await request(h.app).get(`/api/v1/confirmReportEmail/${'0'.repeat(48)}`)).status).toBe(404);
    expect((await request(h.app).get('/api/v1/confirmReportEmail/<script>')).status).toBe(404);
    const [serial] = (await as('client').get('/device')).body.map((d: { serial: string }) => d.serial);
    const res = await as('client').post('/emailReport', {
      deviceSerials: [serial],
      ...range,
      emails: ['stranger@elsewhere.test'],
    });
    expect(res.status).toBe(202);
    expect(res.body.unconfirmed).toEqual([]);
    await settle();
    expect(reportsTo('stranger@elsewhere.test')).toHaveLength(1);
  });

  it('at most one confirmation mail a day per address, whoever adds it; a changed address confirms again', async () => {
    // Another user adds the same stranger the same day: its entry is unconfirmed and no second mail goes.
    const byPartner = await as('partner').post('/addEmail', { email: 'Stranger@Elsewhere.test', name: 'Again' });
    expect(byPartner.body.confirmed).toBe(false);
    await settle();
    expect(mailsTo('stranger@elsewhere.test').filter((m) => /Confirm to receive/.test(m.raw))).toHaveLength(1);
    // Editing a confirmed entry's address makes it a new recipient: unconfirmed, and asked.
    const id = ((await as('client').get('/email')).body as { id: number; email: string }[]).find(
      (e) => e.email === 'stranger@elsewhere.test',
    )!.id;
    const moved = await as('client').post(`/email/${id}`, { email: 'moved@elsewhere.test' });
    expect(moved.body).toMatchObject({ email: 'moved@elsewhere.test', confirmed: false });
    await settle();
    expect(confirmationPath(h.smtp.received, 'moved@elsewhere.test')).toBeDefined();
    // Stored so: its earlier confirmation (of the old address) is gone.
    const [row] = await h.database.db.select().from(reportEmails).where(eq(reportEmails.id, id));
    expect(row!.confirmedAt).toBeNull();
  });

  it('a user sends at most 30 report mails an hour: the call that would pass it answers 429 with Retry-After, and sends nothing', async () => {
    const emails = Array.from({ length: 12 }, (_, i) => `r${i}@throttle.test`);
    for (const email of emails) expect((await as('distributor').post('/addEmail', { email, name: email })).status).toBe(201);
    await confirmRecipients(h.app, h.smtp.received, emails);
    const serial = ((await as('distributor').get('/device')).body as { serial: string }[])[0]!.serial;
    const send = (list: string[]) => as('distributor').post('/emailReport', { deviceSerials: [serial], ...range, emails: list });
    // 12 + 12 = 24 mails pass; 12 more would make 36: refused whole, nothing queued; 6 more make 30 and pass.
    expect((await send(emails)).status).toBe(202);
    expect((await send(emails)).status).toBe(202);
    const over = await send(emails);
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatch(/^Too many report mails: at most 30 an hour\. Try again in \d+ seconds\.$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await send(emails.slice(0, 6))).status).toBe(202);
    expect((await send(emails.slice(0, 1))).status).toBe(429);
    await settle();
    expect(emails.map((e) => reportsTo(e).length)).toEqual([...Array(6).fill(3), ...Array(6).fill(2)]);
    // Another user's quota is its own.
    const [clientSerial] = (await as('client').get('/device')).body.map((d: { serial: string }) => d.serial);
    expect(
      (await as('client').post('/emailReport', { deviceSerials: [clientSerial], ...range, emails: ['parks@demo.test'] })).status,
    ).toBe(202);
  });
});
