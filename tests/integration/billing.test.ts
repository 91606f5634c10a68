import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billSchema, deactivationDue, lastDeactivatingDueDate, type Bill } from '@fleet/shared';
import { billingRepository } from '../../server/src/billing/billing.repository.ts';
import { WEBHOOK_PATH } from '../../server/src/billing/billing.routes.ts';
import { overdueTick, overdueTickKey } from '../../server/src/billing/overdue-schedule.ts';
import { signWebhook } from '../../server/src/billing/webhook-signature.ts';
import { openDatabase, type Db } from '../../server/src/db/client.ts';
import { bills, jobRuns, users } from '../../server/src/db/schema.ts';
import { backends, TEST_DATABASE_URL } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

const DISTRIBUTOR = 'distributor@demo.test';
const CLIENT = 'client@demo.test';
const CLIENT2 = 'client2@demo.test';
const PARTNER = 'partner@demo.test';

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d;
};

/** The billing calls of spec section 7, the webhook and the overdue rule, on the demo seed. */
describe.each(BACKENDS)('billing on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  const ended: number[] = [];
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of [DISTRIBUTOR, CLIENT, CLIENT2, PARTNER]) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const as = (email: string | undefined, method: 'get' | 'post', path: string, body?: unknown) => {
    const r =
      method === 'get'
        ? request(h.app).get(path)
        : request(h.app)
            .post(path)
            .send(body as object);
    return email ? r.set({ Authorization: `Token ${keys[email]}` }) : r;
  };
  const scopeSerials = async (email: string) =>
    ((await as(email, 'get', '/api/v1/device')).body as { serial: string; location_id?: unknown }[]).map((d) => d.serial).sort();
  const webhook = (body: string, opts: { ts?: number; secret?: string } = {}) => {
    const ts = opts.ts ?? Math.floor(Date.now() / 1000);
    return request(h.app)
      .post(WEBHOOK_PATH)
      .set({
        'Content-Type': 'application/json',
        'X-Billing-Timestamp': String(ts),
        'X-Billing-Signature': signWebhook(opts.secret ?? h.config.billing.webhookSecret!, ts, body),
      })
      .send(body);
  };
  const tick = (now: Date, db: Db = h.database.db, endedBy: number[] = ended) =>
    overdueTick({
      db,
      config: h.config,
      now: () => now,
      sessions: { endUserSessions: async (id) => void endedBy.push(id), endTokenSession: async () => undefined },
      log: () => undefined,
    });
  /**
   * The database as a second process sees it: on PostgreSQL its own connection pool on the same schema; PGlite
   * is one embedded connection, so there the two "processes" share it (and their calls are serialised).
   */
  const secondProcessDb = async (): Promise<{ db: Db; close: () => Promise<void> }> => {
    if (h.database.kind !== 'postgres') return { db: h.database.db, close: async () => undefined };
    const { rows } = (await h.database.db.execute(sql`select current_schema() as schema`)) as unknown as {
      rows: { schema: string }[];
    };
    const other = await openDatabase({ url: TEST_DATABASE_URL, schema: rows[0]!.schema, migrate: false });
    return { db: other.db, close: () => other.close() };
  };

  it('lists, per product path asked, the devices of the caller not yet on the plan', async () => {
    const res = await as(CLIENT, 'post', '/api/v1/get_unsubscription_list', {
      product_name_list: ['basic-plan', 'maintenance', 'support plan'],
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['basic-plan', 'maintenance', 'support plan']);
    const own = await scopeSerials(CLIENT);
    expect(own.length).toBeGreaterThan(0);
    // The distributor's seeded Basic Plan holds every placed device; nobody has 8x7 support yet.
    expect(res.body['basic-plan']).toEqual([]);
    const support = (res.body['support plan'] as { serial: string }[]).map((d) => d.serial);
    expect(support.every((s) => own.includes(s))).toBe(true);
    expect(support.length).toBeGreaterThan(0);
    const all = (
      await as(DISTRIBUTOR, 'post', '/api/v1/get_unsubscription_list', { product_name_list: ['support-plan', 'maintenance'] })
    ).body;
    expect(all['support-plan'].length).toBeGreaterThan(support.length);
    // The seeded Maintenance bill (waiting for payment) holds 20 devices.
    expect(all['support-plan'].length - all.maintenance.length).toBe(20);
  });

  it('answers 400 with field messages, 403 to market partners, 401 without a token', async () => {
    const bad = await as(CLIENT, 'post', '/api/v1/get_unsubscription_list', { product_name_list: ['gold-plan'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ product_name_list: ['Unknown product: gold-plan.'] });
    const misnamed = await as(CLIENT, 'post', '/api/v1/create_bill', {
      bill_uid: 'it-misnamed',
      product_name: 'sim-card',
      price_usd: 5,
      name: 'Gold Plan',
      device_serial_list: (await scopeSerials(CLIENT)).slice(0, 1),
    });
    expect(misnamed.status).toBe(400);
    expect(misnamed.body).toEqual({ name: ['The name of sim-card is Sim Card.'] });
    const noBody = await as(CLIENT, 'post', '/api/v1/create_bill', {});
    expect(noBody.status).toBe(400);
    expect(Object.keys(noBody.body)).toEqual(
      expect.arrayContaining(['bill_uid', 'product_name', 'price_usd', 'name', 'device_serial_list']),
    );
    for (const [method, path] of [
      ['get', '/api/v1/get_all_bill'],
      ['post', '/api/v1/get_unsubscription_list'],
      ['post', '/api/v1/create_bill'],
    ] as const) {
      expect((await as(PARTNER, method, path, { product_name_list: ['basic-plan'] })).status).toBe(403);
      expect((await as(undefined, method, path, {})).status).toBe(401);
    }
  });

  let clientBill: Bill;
  it('checks out a client bill within its scope, once per bill_uid, never half-saved', async () => {
    const own = await scopeSerials(CLIENT);
    const distOnly = (await scopeSerials(DISTRIBUTOR)).find((s) => !own.includes(s))!;
    const body = {
      bill_uid: 'it-client-1',
      product_name: 'support plan',
      price_usd: 1980,
      name: '8x7 support',
      device_serial_list: own.slice(0, 2),
      note: 'first',
      payment_type: 'SUBSCRIPTION',
    };

    const wrongPrice = await as(CLIENT, 'post', '/api/v1/create_bill', { ...body, price_usd: 19.8 });
    expect(wrongPrice.status).toBe(400);
    expect(wrongPrice.body).toEqual({ price_usd: ['The price of 8x7 support is $1,980.00 per month.'] });
    // A serial outside the client's scope answers as an unknown one, and nothing is stored.
    const outside = await as(CLIENT, 'post', '/api/v1/create_bill', { ...body, device_serial_list: [own[0], distOnly] });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({ device_serial_list: [`Unknown device: ${distOnly}.`] });
    expect((await h.database.db.select().from(bills).where(eq(bills.billUid, 'it-client-1'))).length).toBe(0);

    const created = await as(CLIENT, 'post', '/api/v1/create_bill', body);
    expect(created.status).toBe(201);
    clientBill = billSchema.parse(created.body);
    const today = new Date().toISOString().slice(0, 10);
    expect(clientBill).toMatchObject({
      status: 'PENDING',
      product_name: 'support-plan',
      total_usd: 1980,
      device_count: 2,
      note: 'first',
      provider: 'offline',
      payer: { email: CLIENT },
    });
    expect(clientBill.due_date).toBe(addDays(today, 14).toISOString().slice(0, 10));
    expect(clientBill.deactivation_date).toBe(addDays(today, 29).toISOString().slice(0, 10));

    const again = await as(CLIENT, 'post', '/api/v1/create_bill', body);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(clientBill.id);
    const reused = await as(CLIENT, 'post', '/api/v1/create_bill', { ...body, device_serial_list: own.slice(0, 1) });
    expect(reused.body).toEqual({ bill_uid: ['This bill_uid is already used by another bill.'] });
    // The devices now wait on the plan: the distributor cannot bill them for it again.
    const twice = await as(DISTRIBUTOR, 'post', '/api/v1/create_bill', {
      ...body,
      bill_uid: 'it-dist-1',
      device_serial_list: [own[1]],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.device_serial_list[0]).toContain('is already on 8x7 support');
    const left = (await as(CLIENT, 'post', '/api/v1/get_unsubscription_list', { product_name_list: ['support-plan'] })).body[
      'support-plan'
    ] as { serial: string }[];
    expect(left.some((d) => own.slice(0, 2).includes(d.serial))).toBe(false);
  });

  it('shows a client the bills it pays and a distributor every bill; only a distributor marks one paid', async () => {
    const own = await scopeSerials(CLIENT);
    const mine = billSchema.array().parse((await as(CLIENT, 'get', '/api/v1/get_all_bill')).body);
    // Its own bill, and the distributor's plans that hold its devices, listing only its devices and priced for them.
    const every = billSchema.array().parse((await as(DISTRIBUTOR, 'get', '/api/v1/get_all_bill')).body);
    const maintOwn = every.find((b) => b.bill_uid === 'DEMO-MAINT-0001')!.device_serial_list.filter((s) => own.includes(s));
    expect(mine.map((b) => b.bill_uid).sort()).toEqual(
      ['DEMO-BASIC-0001', 'DEMO-SIM-0001', 'it-client-1', ...(maintOwn.length ? ['DEMO-MAINT-0001'] : [])].sort(),
    );
    if (maintOwn.length) expect(mine.find((b) => b.bill_uid === 'DEMO-MAINT-0001')!.device_serial_list).toEqual(maintOwn);
    for (const b of mine) expect(b.device_serial_list.every((s) => own.includes(s))).toBe(true);
    const basic = mine.find((b) => b.bill_uid === 'DEMO-BASIC-0001')!;
    expect(basic).toMatchObject({ device_count: own.length, total_usd: own.length * 17, payer: { email: DISTRIBUTOR } });
    expect(mine.some((b) => b.bill_uid === 'DEMO-BASIC-0099')).toBe(false);
    expect(every.map((b) => b.bill_uid)).toEqual(
      expect.arrayContaining(['it-client-1', 'DEMO-BASIC-0001', 'DEMO-MAINT-0001', 'DEMO-BASIC-0099']),
    );
    expect(every.find((b) => b.bill_uid === 'DEMO-MAINT-0001')).toMatchObject({
      status: 'PENDING',
      device_count: 20,
      total_usd: 150,
    });
    // The seeded overdue bill covers Lapsed Leisure's site (6 devices), which the distributor's Basic Plan leaves out.
    const lapsed = every.find((b) => b.bill_uid === 'DEMO-BASIC-0099')!;
    expect(lapsed).toMatchObject({
      status: 'OVERDUE',
      product_name: 'basic-plan',
      name: 'Basic Plan (Contract)',
      device_count: 6,
      total_usd: 102,
      payer: { email: 'overdue@demo.test' },
    });
    const distBasic = every.find((b) => b.bill_uid === 'DEMO-BASIC-0001')!.device_serial_list;
    expect(lapsed.device_serial_list.filter((s) => distBasic.includes(s))).toEqual([]);
    expect(distBasic.length + lapsed.device_count).toBe((await scopeSerials(DISTRIBUTOR)).length);
    expect((await as(CLIENT, 'post', '/api/v1/mark_bill_paid', { bill_uid: 'it-client-1' })).status).toBe(403);
    expect((await as(DISTRIBUTOR, 'post', '/api/v1/mark_bill_paid', { bill_uid: 'nope' })).status).toBe(404);
    expect((await as(DISTRIBUTOR, 'post', '/api/v1/mark_bill_paid', { bill_uid: '' })).body).toEqual({
      bill_uid: ['This field may not be blank.'],
    });
  });

  it('the SQL of the overdue rule picks the payers the shared rule names, on every day around each due date', async () => {
    const repo = billingRepository(h.database.db);
    const all = await h.database.db
      .select({ userId: bills.userId, status: bills.status, dueDate: bills.dueDate, activated: users.activated })
      .from(bills)
      .innerJoin(users, eq(users.id, bills.userId));
    const dues = all.map((b) => b.dueDate!).sort();
    let day = lastDeactivatingDueDate(dues[0]!); // 15 days before the first due date: nobody yet
    const last = addDays(dues.at(-1)!, 16).toISOString().slice(0, 10);
    const outcomes = new Set<number>();
    for (; day <= last; day = addDays(day, 1).toISOString().slice(0, 10)) {
      const fromSql = await repo.payersPastDeactivation(lastDeactivatingDueDate(day));
      const fromRule = [...new Set(all.filter((b) => b.activated && deactivationDue(b, day)).map((b) => b.userId))].sort(
        (a, b) => a - b,
      );
      expect(fromSql, day).toEqual(fromRule);
      outcomes.add(fromSql.length);
    }
    // Not vacuous: some days name nobody, later ones name the payers of the open bills.
    expect(outcomes.has(0)).toBe(true);
    expect(Math.max(...outcomes)).toBeGreaterThanOrEqual(2);
  });

  it('refuses forged, stale and replayed webhooks; a signed one pays the bill', async () => {
    const body = JSON.stringify({ event_id: 'it-evt-1', type: 'bill.paid', bill_uid: 'it-client-1', reference: 'wire 42' });
    expect((await webhook(body, { secret: 'someone-else-entirely-0123456789' })).status).toBe(401);
    expect((await webhook(body, { ts: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(401);
    expect((await request(h.app).post(WEBHOOK_PATH).set('Content-Type', 'application/json').send(body)).status).toBe(401);
    const clientBill = async () =>
      ((await as(CLIENT, 'get', '/api/v1/get_all_bill')).body as Bill[]).find((b) => b.bill_uid === 'it-client-1')!;
    expect((await clientBill()).status).toBe('PENDING');

    const ok = await webhook(body);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ detail: 'Bill paid.', bill_uid: 'it-client-1', reactivated: false });
    expect(await clientBill()).toMatchObject({ status: 'ACTIVE', payment_reference: 'wire 42' });
    const replay = await webhook(body);
    expect(replay.status).toBe(409);
    expect(replay.body.detail).toBe('This event was already processed.');
  });

  it('deactivates an account whose invoice is 15 days overdue (not 14): 403 everywhere; payment re-activates it', async () => {
    const own = await scopeSerials(CLIENT2);
    const created = await as(CLIENT2, 'post', '/api/v1/create_bill', {
      bill_uid: 'it-client2-1',
      product_name: 'support-plan',
      price_usd: 1980,
      name: '8x7 support',
      device_serial_list: own.slice(0, 1),
    });
    expect(created.status).toBe(201);
    const due: string = created.body.due_date;
    const [client2] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, CLIENT2));

    const day14 = await tick(addDays(due, 14));
    expect(day14.ran).toBe(true);
    expect((await as(CLIENT2, 'get', '/api/v1/user')).status).toBe(200);
    const bill14 = ((await as(CLIENT2, 'get', '/api/v1/get_all_bill')).body as Bill[]).find(
      (b) => b.bill_uid === 'it-client2-1',
    )!;
    expect(bill14.status).toBe('OVERDUE');

    // Once per tick across processes: two processes (each its own service, on PostgreSQL each its own
    // connection pool) start the same tick at the same moment; the job ledger lets exactly one run it.
    const day15 = addDays(due, 15);
    const other = await secondProcessDb();
    const endedA: number[] = [];
    const endedB: number[] = [];
    const both = await Promise.all([tick(day15, h.database.db, endedA), tick(day15, other.db, endedB)]).finally(() =>
      other.close(),
    );
    expect(both.filter((r) => r.ran)).toHaveLength(1);
    expect(both.find((r) => r.ran)).toMatchObject({ ran: true, deactivated: expect.arrayContaining([client2!.id]) });
    expect([...endedA, ...endedB].filter((id) => id === client2!.id)).toEqual([client2!.id]);
    const runs = await h.database.db.select().from(jobRuns).where(eq(jobRuns.name, 'billing-overdue'));
    expect(runs.filter((r) => r.idempotencyKey === overdueTickKey(day15))).toMatchObject([{ status: 'done' }]);
    // And the same tick again later is skipped too.
    expect((await tick(day15)).ran).toBe(false);
    const refused = await as(CLIENT2, 'get', '/api/v1/device');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('account_deactivated');
    expect((await as(CLIENT2, 'get', '/api/v1/get_all_bill')).status).toBe(403);
    expect((await request(h.app).post('/auth/token/login/').send({ email: CLIENT2, password: 'Demo1234' })).status).toBe(401);
    const [row] = await h.database.db
      .select({ activated: users.activated, reason: users.deactivatedReason })
      .from(users)
      .where(eq(users.id, client2!.id));
    expect(row).toEqual({ activated: false, reason: 'overdue' });

    const paid = await as(DISTRIBUTOR, 'post', '/api/v1/mark_bill_paid', { bill_uid: 'it-client2-1', reference: 'cheque 7' });
    expect(paid.status).toBe(200);
    expect(paid.body.reactivated).toBe(true);
    expect((await as(CLIENT2, 'get', '/api/v1/get_all_bill')).status).toBe(200);
  });

  it('a payment racing the overdue check never leaves a paid-up account deactivated', async () => {
    const own = await scopeSerials(CLIENT);
    const [client] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, CLIENT));
    for (let round = 0; round < 3; round++) {
      const uid = `it-race-${round}`;
      const created = await as(CLIENT, 'post', '/api/v1/create_bill', {
        bill_uid: uid,
        product_name: 'ble-tracking',
        price_usd: 3,
        name: 'BLE Tracking',
        device_serial_list: [own[round]],
      });
      expect(created.status).toBe(201);
      // Another tick each round (an hour apart), fired together with the payment.
      const at = new Date(addDays(created.body.due_date, 20).getTime() + round * 3_600_000);
      const [, paid] = await Promise.all([tick(at), as(DISTRIBUTOR, 'post', '/api/v1/mark_bill_paid', { bill_uid: uid })]);
      expect(paid.status).toBe(200);
      const [row] = await h.database.db.select({ activated: users.activated }).from(users).where(eq(users.id, client!.id));
      expect(row!.activated).toBe(true);
    }
  });

  it('re-activates the seeded overdue account when its invoice is paid by webhook', async () => {
    expect(
      (await request(h.app).post('/auth/token/login/').send({ email: 'overdue@demo.test', password: 'Demo1234' })).status,
    ).toBe(401);
    const res = await webhook(JSON.stringify({ event_id: 'it-evt-overdue', type: 'bill.paid', bill_uid: 'DEMO-BASIC-0099' }));
    expect(res.body).toEqual({ detail: 'Bill paid.', bill_uid: 'DEMO-BASIC-0099', reactivated: true });
    expect(
      (await request(h.app).post('/auth/token/login/').send({ email: 'overdue@demo.test', password: 'Demo1234' })).status,
    ).toBe(200);
  });

  it('lists the billing calls in the OpenAPI document', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body;
    for (const path of [
      '/api/v1/get_unsubscription_list',
      '/api/v1/get_all_bill',
      '/api/v1/create_bill',
      '/api/v1/mark_bill_paid',
      WEBHOOK_PATH,
    ])
      expect(doc.paths[path]).toBeTruthy();
  });
});
