import { eq, inArray, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Crew, ServicePlan, ServicePlanProgress } from '@fleet/shared';
import { createApp } from '../../server/src/app.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { devices, userExclusiveDevices, users } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { mailText } from '../helpers/smtp.ts';

const BACKENDS = await backends();
const DAY = 86_400_000;
/** Tomorrow (UTC): the day a distributor plans the evening before. */
const DATE = new Date(Date.now() + DAY).toISOString().slice(0, 10);

const crewBody = (over: Record<string, unknown> = {}) => ({
  name: 'North van',
  email: 'north.van@crew.test',
  phone: '+1 504 555 0199',
  depot: { address: '100 Depot Rd, New Orleans, LA', lat: 29.98, lng: -90.1 },
  startTime: '08:00',
  endTime: '17:00',
  capacityLitres: 60,
  capacityBatteries: 6,
  ...over,
});

describe.each(BACKENDS)('service day on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  const progress: { ownerId: number; payload: ServicePlanProgress }[] = [];
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    h = await startHarness(backend);
    // A second distributor company: the seeded sign-up request, approved. The app is the harness's database
    // with the progress pushes recorded instead of sent to sockets.
    await h.database.db.update(users).set({ activated: true }).where(eq(users.email, 'signup1@demo.test'));
    app = createApp({
      config: h.config,
      database: h.database,
      mailer: createMailer({ smtpUrl: h.config.smtpUrl, from: h.config.mailFrom, outboxDir: `${h.dataDir}/outbox2` }),
      log: () => undefined,
      servicePlanEvents: {
        progressed: (ownerId: number, payload: ServicePlanProgress) => progress.push({ ownerId, payload }),
        attach: () => undefined,
        detach: () => undefined,
        close: () => undefined,
      } as never,
    });
    for (const who of ['distributor', 'client', 'partner', 'partner2', 'signup1']) {
      keys[who] = (
        await request(app)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
  });
  afterAll(async () => {
    await (app as unknown as { queue?: { close(): Promise<void> } })?.queue?.close().catch(() => undefined);
    await h?.close();
  });

  const as = (who: string) => ({ Authorization: `Token ${keys[who] ?? who}` });
  const get = (who: string, path: string) => request(app).get(path).set(as(who));
  const post = (who: string, path: string, body: unknown = {}) =>
    request(app)
      .post(path)
      .set(as(who))
      .send(body as object);
  const put = (who: string, path: string, body: unknown = {}) =>
    request(app)
      .put(path)
      .set(as(who))
      .send(body as object);
  const del = (who: string, path: string) => request(app).delete(path).set(as(who));
  const addCrew = async (who: string, over: Record<string, unknown> = {}) => {
    const res = await post(who, '/api/v1/crews', crewBody(over));
    expect(res.status).toBe(201);
    return res.body as Crew;
  };
  /** Empties a device's left pump: due now whatever its history. */
  const makeDue = (serials: string[]) =>
    h.database.db.update(devices).set({ volumeRemain: 0, leftPumpType: 'Sunscreen' }).where(inArray(devices.serial, serials));
  const mailsTo = (to: string) => h.smtp.received.filter((m) => m.to.includes(to));
  async function waitFor<T>(fn: () => T | undefined | false, ms = 15_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const v = fn();
      if (v) return v;
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('clients see no crews or plans (403), and nothing works without a token (401)', async () => {
    expect((await get('client', '/api/v1/crews')).status).toBe(403);
    expect((await post('client', '/api/v1/crews', crewBody())).status).toBe(403);
    expect((await post('client', '/api/v1/servicePlans', { date: DATE, crewIds: [] })).status).toBe(403);
    expect((await get('client', `/api/v1/servicePlans?date=${DATE}`)).status).toBe(403);
    expect((await request(app).get('/api/v1/crews')).status).toBe(401);
  });

  it('a crew with no depot coordinates, hours that end before they start, or a negative capacity: 400 naming the field, nothing saved', async () => {
    const before = (await get('distributor', '/api/v1/crews')).body.length;
    const noCoords = await post('distributor', '/api/v1/crews', crewBody({ depot: { address: '1 Main St' } }));
    expect(noCoords.status).toBe(400);
    expect(Object.keys(noCoords.body)).toEqual(['depot']);
    expect(noCoords.body.depot[0]).toMatch(/coordinates/);
    const backwards = await post('distributor', '/api/v1/crews', crewBody({ startTime: '17:00', endTime: '08:00' }));
    expect(backwards.status).toBe(400);
    expect(backwards.body).toEqual({ endTime: ['Working hours must end after they start.'] });
    const negative = await post('distributor', '/api/v1/crews', crewBody({ capacityLitres: -1 }));
    expect(negative.status).toBe(400);
    expect(negative.body).toEqual({ capacityLitres: ['Capacity cannot be negative.'] });
    expect((await get('distributor', '/api/v1/crews')).body.length).toBe(before);
  });

  it('crews: add (the depot zone from its coordinates), edit, delete; each owner sees only its own', async () => {
    const crew = await addCrew('distributor', { name: 'Temp van' });
    expect(crew.timeZone).toBe('America/Chicago');
    expect((await get('distributor', '/api/v1/crews')).body.map((c: Crew) => c.id)).toContain(crew.id);
    expect((await get('partner', '/api/v1/crews')).body.map((c: Crew) => c.id)).not.toContain(crew.id);
    expect((await put('partner', `/api/v1/crews/${crew.id}`, crewBody())).status).toBe(404);
    expect((await del('partner', `/api/v1/crews/${crew.id}`)).status).toBe(404);
    const edited = await put('distributor', `/api/v1/crews/${crew.id}`, crewBody({ name: 'Renamed van', capacityBatteries: 2 }));
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Renamed van', capacityBatteries: 2 });
    expect((await del('distributor', `/api/v1/crews/${crew.id}`)).status).toBe(200);
    expect((await get('distributor', '/api/v1/crews')).body.map((c: Crew) => c.id)).not.toContain(crew.id);
  });

  it('no crews: a plan that says so, with the due work unplanned and why', async () => {
    await makeDue(['SP240003']);
    const res = await post('distributor', '/api/v1/servicePlans', { date: DATE, crewIds: [] });
    expect(res.status).toBe(201);
    const plan = res.body as ServicePlan;
    expect(plan.note).toMatch(/^No crews were chosen: \d+ due sites? (is|are) left unplanned\.$/);
    const u = plan.unplanned.find((x) => x.serial === 'SP240003')!;
    expect(u.why).toBe('No crew was chosen for the day.');
    expect(u.reasons).toContain('Left sunscreen pump is empty');
  });

  it("a crew id of someone else's is refused, naming crewIds", async () => {
    const theirs = await addCrew('partner', { name: 'Partner van' });
    const res = await post('distributor', '/api/v1/servicePlans', { date: DATE, crewIds: [theirs.id] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ crewIds: [`No crew with id ${theirs.id}.`] });
  });

  it('nothing due: a plan that says so', async () => {
    // Partner 2's devices (Fontainebleau State Park) all full, without warnings or batches.
    const ids = (
      await h.database.db
        .select({ deviceId: userExclusiveDevices.deviceId })
        .from(userExclusiveDevices)
        .innerJoin(users, eq(users.id, userExclusiveDevices.userId))
        .where(eq(users.email, 'partner2@demo.test'))
    ).map((r) => r.deviceId);
    expect(ids.length).toBeGreaterThan(0);
    await h.database.db
      .update(devices)
      .set({ volumeRemain: 1500, volumeRemain2: 1500, warningLists: [], isMaintenance: false, batchId: null, batch2Id: null })
      .where(inArray(devices.id, ids));
    await h.database.db.execute(
      sql`delete from pump_events where device_id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    await h.database.db.execute(
      sql`delete from battery_readings where device_id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    const crew = await addCrew('partner2', { name: 'Northshore van' });
    const res = await post('partner2', '/api/v1/servicePlans', { date: DATE, crewIds: [crew.id] });
    expect(res.status).toBe(201);
    expect(res.body.note).toBe(`Nothing is due on ${DATE}: no device needs a visit by the end of the next day.`);
    expect(res.body.crews[0].stops).toEqual([]);
  });

  let crewId = 0;
  let first: ServicePlan;
  it('plans the day: due sites in order with ETAs in site time, refills, pick list; a draft, version 1', async () => {
    crewId = (await addCrew('distributor')).id;
    await makeDue(['SP240003', 'SP240004']);
    const res = await post('distributor', '/api/v1/servicePlans', { date: DATE, crewIds: [crewId] });
    expect(res.status).toBe(201);
    first = res.body as ServicePlan;
    expect(first).toMatchObject({ date: DATE, status: 'draft', travelSource: 'great-circle', note: null });
    const [c] = first.crews;
    expect(c!.crew.id).toBe(crewId);
    expect(c!.stops.length).toBeGreaterThan(0);
    expect(c!.stops.map((s) => s.order)).toEqual(c!.stops.map((_, i) => i + 1));
    for (const s of c!.stops) expect(s.eta).toMatch(new RegExp(`^${DATE}T\\d\\d:\\d\\d:00[-+]\\d\\d:\\d\\d$`));
    const device = c!.stops.flatMap((s) => s.devices).find((d) => d.serial === 'SP240003');
    const planned = !!device;
    const unplanned = first.unplanned.find((u) => u.serial === 'SP240003');
    expect(planned || !!unplanned).toBe(true);
    if (device) {
      expect(device.reasons).toContain('Left sunscreen pump is empty');
      expect(device.refill.find((r) => r.pump === 1)!.litres).toBeGreaterThan(1);
    }
    const litres = c!.stops.flatMap((s) => s.devices.flatMap((d) => d.refill)).reduce((a, r) => a + r.litres, 0);
    expect(c!.pickList.litres).toBeCloseTo(litres, 1);
    expect(c!.pickList.litres).toBeLessThanOrEqual(60);
    expect(c!.totals.stops).toBe(c!.stops.length);
  });

  it("a partner's plan holds only its exclusive devices", async () => {
    const crew = (await get('partner', '/api/v1/crews')).body[0] as Crew;
    const res = await post('partner', '/api/v1/servicePlans', { date: DATE, crewIds: [crew.id] });
    expect(res.status).toBe(201);
    const own = new Set((await get('partner', '/api/v1/device')).body.map((d: { serial: string }) => d.serial));
    const serials = [
      ...(res.body as ServicePlan).crews.flatMap((c) => c.stops.flatMap((s) => s.devices.map((d) => d.serial))),
      ...(res.body as ServicePlan).unplanned.map((u) => u.serial),
    ];
    for (const s of serials) expect(own.has(s)).toBe(true);
    // ... and the distributor's list of that date does not show it.
    expect((await get('distributor', `/api/v1/servicePlans?date=${DATE}`)).body.map((p: ServicePlan) => p.id)).not.toContain(
      res.body.id,
    );
  });

  it('publishing mails each crew its plan (link to /maintenance without a credential, and a PDF); publishing again mails nobody twice', async () => {
    const res = await post('distributor', `/api/v1/servicePlans/${first.id}/publish`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('published');
    expect(res.body.publishedAt).toBeTruthy();
    const mail = await waitFor(() => mailsTo('north.van@crew.test').find((m) => mailText(m.raw).includes(`Service day ${DATE}`)));
    const text = mailText(mail.raw);
    expect(text).toContain('http://portal.test/maintenance');
    expect(text).not.toMatch(/maintenance[#?]/);
    expect(text).not.toContain(h.config.maintenanceToken);
    expect(text).toMatch(/Content-Type: application\/pdf/i);
    const again = await post('distributor', `/api/v1/servicePlans/${first.id}/publish`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('published');
    await new Promise((r) => setTimeout(r, 1000));
    expect(mailsTo('north.van@crew.test').filter((m) => mailText(m.raw).includes(`Service day ${DATE}`))).toHaveLength(1);
  });

  it('progress: a stop is done when each of its devices has a maintenance record; pushed to the owner', async () => {
    const plan = (await get('distributor', `/api/v1/servicePlans/${first.id}`)).body as ServicePlan;
    const stop = plan.crews[0]!.stops[0]!;
    for (const d of stop.devices)
      expect((await post('distributor', '/api/v1/maintenanceRecord', { serial: d.serial, actions: ['refilled'] })).status).toBe(
        201,
      );
    const now = (await get('distributor', `/api/v1/servicePlans/${first.id}`)).body as ServicePlan;
    expect(now.crews[0]!.stops[0]!.done).toBe(true);
    expect(now.crews[0]!.stops[0]!.devices.every((d) => d.serviced)).toBe(true);
    expect(now.status).toBe(plan.crews[0]!.stops.length === 1 ? 'done' : 'in_progress');
    expect(now.progress.done).toBe(1);
    const pushed = await waitFor(() => progress.find((p) => p.payload.planId === first.id && p.payload.progress.done === 1));
    const [me] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'distributor@demo.test'));
    expect(pushed.ownerId).toBe(me!.id);
    expect(pushed.payload.stops.find((s) => s.order === 1)!.done).toBe(true);
  });

  it('re-planning a published day makes a new version; publishing it keeps the old one readable (superseded)', async () => {
    const v2 = (await post('distributor', '/api/v1/servicePlans', { date: DATE, crewIds: [crewId] })).body as ServicePlan;
    expect(v2.version).toBeGreaterThan(first.version);
    expect(v2.status).toBe('draft');
    expect((await post('distributor', `/api/v1/servicePlans/${v2.id}/publish`)).body.status).toBe('published');
    const all = (await get('distributor', `/api/v1/servicePlans?date=${DATE}`)).body as ServicePlan[];
    expect(all.find((p) => p.id === first.id)!.status).toBe('superseded');
    expect(all.find((p) => p.id === first.id)!.crews[0]!.stops.length).toBe(first.crews[0]!.stops.length);
    expect(all.filter((p) => ['published', 'in_progress', 'done'].includes(p.status))).toHaveLength(1);
  });

  it('concurrent publishes never lose a plan: of one owner, one ends published and the other superseded; of two distributors, both published', async () => {
    const a = (await post('distributor', '/api/v1/servicePlans', { date: DATE, crewIds: [crewId] })).body as ServicePlan;
    const b = (await post('distributor', '/api/v1/servicePlans', { date: DATE, crewIds: [crewId] })).body as ServicePlan;
    const otherCrew = await addCrew('signup1', { name: 'Pelican van', email: 'pelican@crew.test' });
    const c = (await post('signup1', '/api/v1/servicePlans', { date: DATE, crewIds: [otherCrew.id] })).body as ServicePlan;
    const answers = await Promise.all([
      post('distributor', `/api/v1/servicePlans/${a.id}/publish`),
      post('distributor', `/api/v1/servicePlans/${b.id}/publish`),
      post('signup1', `/api/v1/servicePlans/${c.id}/publish`),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const mine = (await get('distributor', `/api/v1/servicePlans?date=${DATE}`)).body as ServicePlan[];
    const states = [a.id, b.id].map((id) => mine.find((p) => p.id === id)!.status).sort();
    expect(states).toEqual(['published', 'superseded']);
    expect(mine.filter((p) => ['published', 'in_progress', 'done'].includes(p.status))).toHaveLength(1);
    const theirs = (await get('signup1', `/api/v1/servicePlans?date=${DATE}`)).body as ServicePlan[];
    expect(theirs.map((p) => [p.id, p.status])).toEqual([[c.id, 'published']]);
  });

  it("the maintenance credential (the field app) reads the published plans of a date, every owner's, and nothing else", async () => {
    const token = h.config.maintenanceToken;
    const res = await get(token, `/api/v1/servicePlans?date=${DATE}`);
    expect(res.status).toBe(200);
    const plans = res.body as ServicePlan[];
    // One published plan per owner: the distributor's and the second company's; no draft, nothing superseded.
    const mine = (await get('distributor', `/api/v1/servicePlans?date=${DATE}`)).body as ServicePlan[];
    const theirs = (await get('signup1', `/api/v1/servicePlans?date=${DATE}`)).body as ServicePlan[];
    const published = [...mine, ...theirs].filter((p) => ['published', 'in_progress', 'done'].includes(p.status));
    expect(plans.map((p) => p.id).sort()).toEqual(published.map((p) => p.id).sort());
    expect(plans).toHaveLength(2);
    expect(plans.every((p) => p.status !== 'draft' && p.status !== 'superseded')).toBe(true);
    // Read only: it keeps no crews and changes no plan.
    expect((await get(token, '/api/v1/crews')).status).toBe(403);
    expect((await get(token, `/api/v1/servicePlans/${plans[0]!.id}`)).status).toBe(403);
    expect((await post(token, '/api/v1/servicePlans', { date: DATE, crewIds: [] })).status).toBe(403);
    expect((await post(token, `/api/v1/servicePlans/${plans[0]!.id}/publish`)).status).toBe(403);
    expect((await get(token, '/api/v1/servicePlans?date=tomorrow')).body).toEqual({ date: ['Use a date YYYY-MM-DD.'] });
  });

  it('plans survive a restart (a new app on the same database reads them)', async () => {
    const fresh = createApp({
      config: h.config,
      database: h.database,
      mailer: { send: async () => undefined },
      log: () => undefined,
    });
    try {
      const res = await request(fresh).get(`/api/v1/servicePlans/${first.id}`).set(as('distributor'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: first.id, status: 'superseded', date: DATE });
    } finally {
      await (fresh as unknown as { queue: { close(): Promise<void> } }).queue.close().catch(() => undefined);
    }
  });

  it('appears in the OpenAPI document', async () => {
    const doc = (await request(app).get('/api/openapi.json')).body;
    for (const p of ['/api/v1/crews', '/api/v1/crews/{id}', '/api/v1/servicePlans', '/api/v1/servicePlans/{id}/publish'])
      expect(doc.paths[p]).toBeTruthy();
    expect(Object.keys(doc.paths['/api/v1/crews/{id}'])).toEqual(['put', 'delete']);
  });
});
