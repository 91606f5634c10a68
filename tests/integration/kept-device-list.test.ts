import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessOf, deviceScope, type ScopeViewer } from '../../server/src/access/scope.ts';
import { devicesRepository } from '../../server/src/devices/devices.repository.ts';
import { devicesService } from '../../server/src/devices/devices.service.ts';
import { PIN_TUPLE_SQL } from '../../server/src/devices/pin-sql.ts';
import { addBenchFleet } from '../../server/src/seed/scale.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { streamedText } from '../helpers/streamed-text.ts';
import { wholeListOneQuery } from '../helpers/whole-list.ts';

const BACKENDS = await backends();
const EMAILS = ['distributor@demo.test', 'client@demo.test', 'partner@demo.test', 'client2@demo.test'];
/** Sites a piece covers here: the fleet's 50-odd sites are some fifteen pieces. */
const PIECE_SITES = 4;

const client = `(SELECT id FROM users WHERE email = 'client@demo.test')`;
const partner = `(SELECT id FROM users WHERE email = 'partner@demo.test')`;
/**
 * Every kind of change to what the list shows, or to who sees what, made as the portal, the gateway and the
 * workers make it (plain SQL: the triggers do the rest). After each, every scope's kept list must be the one
 * query's text.
 */
const CHANGES: [string, string][] = [
  [
    'check-ins of devices on three sites',
    `UPDATE devices SET volume_remain = volume_remain - 3, battery_percent = 41, last_seen_at = now()
     WHERE serial IN ('BN000004', 'BN000150', 'BN000333')`,
  ],
  ['a label edited', `UPDATE devices SET label = 'Kept label ☀' WHERE serial = 'BN000023'`],
  [
    'a device gone offline and paused (its pin)',
    `UPDATE devices SET is_online = false, is_pause = true WHERE serial = 'BN000040'`,
  ],
  ['a brand renamed', `UPDATE brands SET name = name || ' Renamed' WHERE id = (SELECT min(id) FROM brands)`],
  ['a batch renamed', `UPDATE batches SET batch_no = 'SPF-2601-R' WHERE batch_no = 'SPF-2601'`],
  [
    'a device moved to another site',
    `UPDATE devices SET group_id = (SELECT max(id) FROM device_groups WHERE name LIKE 'Bench Site %')
     WHERE serial = 'BN000011'`,
  ],
  ['a device unplaced', `UPDATE devices SET group_id = NULL WHERE serial = 'BN000013'`],
  [
    'a device added on a new site',
    `
     INSERT INTO device_groups (name, address, lat, lng, location_id, timezone_id)
       SELECT 'Kept Site', address, lat, lng, location_id, timezone_id FROM device_groups WHERE name = 'Bench Site 2';
     INSERT INTO devices (serial, label, number, address, lat, lng, group_id, brand_id, location_event_type, left_pump_type, right_pump_type)
       SELECT 'KP000001', 'Kept new', 1, address, lat, lng, (SELECT id FROM device_groups WHERE name = 'Kept Site'), brand_id,
              location_event_type, left_pump_type, right_pump_type
       FROM devices WHERE serial = 'BN000031'`,
  ],
  [
    'a brand given to a client',
    `INSERT INTO brand_clients (brand_id, user_id)
     SELECT b.id, ${client} FROM brands b WHERE b.id NOT IN (SELECT brand_id FROM brand_clients WHERE user_id = ${client})
     ORDER BY b.id LIMIT 1`,
  ],
  [
    'a brand taken from a client',
    `DELETE FROM brand_clients
     WHERE user_id = ${client} AND brand_id = (SELECT min(brand_id) FROM brand_clients WHERE user_id = ${client})`,
  ],
  [
    'a device given to a partner',
    `INSERT INTO user_exclusive_devices (user_id, device_id)
     SELECT ${partner}, id FROM devices WHERE serial IN ('BN000019', 'BN000400') ON CONFLICT DO NOTHING`,
  ],
  ['a partner’s company renamed', `UPDATE users SET company = company || ' Ltd' WHERE email = 'partner@demo.test'`],
  [
    'a site moved to another county',
    `UPDATE device_groups SET location_id = (SELECT max(id) FROM locations) WHERE name = 'Bench Site 3'`,
  ],
  [
    'a device taken from a partner',
    `DELETE FROM user_exclusive_devices
     WHERE user_id = ${partner} AND device_id = (SELECT id FROM devices WHERE serial = 'BN000019')`,
  ],
];

/**
 * GET /api/v1/device kept as gzip pieces per range of sites (issue 46, server/src/devices/kept-list.ts): a read
 * reads again only the pieces whose sites' list versions moved, and its answer is always the very text of the
 * one query of the whole list, in every scope, whatever changed. The pin feed (GET /api/v1/devicePins) is kept
 * the same way, by the same versions: its answer is always the pins built fresh from the device rows.
 */
describe.each(BACKENDS)('the whole device list kept as gzip pieces, on %s', (backend) => {
  let h: Harness;
  let service: ReturnType<typeof devicesService>;
  const viewers: Record<string, ScopeViewer> = {};
  let distributorKey = '';
  beforeAll(async () => {
    h = await startHarness(backend);
    await addBenchFleet(h.database, 50, 500);
    service = devicesService({ repo: devicesRepository(h.database.db), now: () => new Date(), listPieceSites: PIECE_SITES });
    for (const email of EMAILS) {
      const user = (
        (await h.database.db.execute(sql`select id, role, user_type from users where email = ${email}`)) as unknown as {
          rows: { id: number; role: string; user_type: string | null }[];
        }
      ).rows[0]!;
      viewers[email] = { id: user.id, access: accessOf({ role: user.role, userType: user.user_type }) };
    }
    distributorKey = (await request(h.app).post('/auth/token/login/').send({ email: EMAILS[0], password: 'Demo1234' })).body
      .auth_token;
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  const kept = async (email: string) => streamedText(await service.listStream(viewers[email]!, 'gzip', true));
  const expected = (email: string) => wholeListOneQuery(h.database, deviceScope(viewers[email]!));
  const keptPins = async (email: string) => streamedText(await service.pinsStream(viewers[email]!, 'gzip', true));
  /** The feed built fresh from the device rows (not from the kept device_pins), one tuple a line, by site then device. */
  const expectedPins = async (email: string) =>
    (
      (await h.database.db.execute(sql`
        select '[' || coalesce(string_agg((${PIN_TUPLE_SQL})::text, E',\n' order by devices.group_id, devices.id), '') || ']' as json
        from devices where devices.group_id is not null and ${deviceScope(viewers[email]!) ?? sql`true`}`)) as unknown as {
        rows: { json: string }[];
      }
    ).rows[0]!.json;

  it('answers every scope with the one query’s text, and reads again only the pieces whose sites changed', async () => {
    for (const email of EMAILS) expect(await kept(email)).toBe(await expected(email));
    const all = await wholeListOneQuery(h.database, undefined);
    expect(JSON.parse(all).length).toBeGreaterThan(500);
    const pieces = (await h.database.db.execute(sql`select count(distinct group_id / ${PIECE_SITES}::int)::int as n from devices
      where group_id is not null`)) as unknown as { rows: { n: number }[] };
    expect(pieces.rows[0]!.n).toBeGreaterThan(10);

    // Nothing changed: nothing is read again, and the answer is the same; the pin feed likewise.
    let read = service.keptList.piecesRead();
    for (const email of EMAILS) expect(await kept(email)).toBe(await expected(email));
    expect(service.keptList.piecesRead()).toBe(read);
    for (const email of EMAILS) expect(await keptPins(email)).toBe(await expectedPins(email));
    const pinsRead = service.keptPins.piecesRead();
    for (const email of EMAILS) expect(await keptPins(email)).toBe(await expectedPins(email));
    expect(service.keptPins.piecesRead()).toBe(pinsRead);
    expect(JSON.parse(await keptPins(EMAILS[0]!)).length).toBeGreaterThan(500);

    // A check-in of one device: its piece, once for each scope that reads it.
    await h.database.exec(`UPDATE devices SET battery_percent = 12, last_seen_at = now() WHERE serial = 'BN000007'`);
    read = service.keptList.piecesRead();
    const after = await kept(EMAILS[0]!);
    expect(after).toBe(await expected(EMAILS[0]!));
    expect(service.keptList.piecesRead() - read).toBe(1);
    expect(
      (JSON.parse(after) as { serial: string; battery_percent: number }[]).find((d) => d.serial === 'BN000007')?.battery_percent,
    ).toBe(12);

    // A market partner's list reads only the pieces holding its devices, not the fleet's.
    const partnerPieces = (await h.database.db.execute(sql`
      select count(distinct d.group_id / ${PIECE_SITES}::int)::int as n from devices d
      join user_exclusive_devices x on x.device_id = d.id join users u on u.id = x.user_id
      where u.email = 'partner@demo.test' and d.group_id is not null`)) as unknown as { rows: { n: number }[] };
    await h.database.exec(`UPDATE devices SET battery_percent = battery_percent WHERE group_id IS NOT NULL`);
    read = service.keptList.piecesRead();
    expect(await kept('partner@demo.test')).toBe(await expected('partner@demo.test'));
    expect(service.keptList.piecesRead() - read).toBe(partnerPieces.rows[0]!.n);
    expect(partnerPieces.rows[0]!.n).toBeLessThan(pieces.rows[0]!.n);

    // What is kept is compressed: well under the text.
    expect(service.keptList.bytes()).toBeGreaterThan(0);
    expect(service.keptList.bytes()).toBeLessThan(Buffer.byteLength(all) / 2);
  });

  it.each(CHANGES)(
    'after %s, every scope’s answer is the one query’s text, its pins the pins built fresh',
    async (_name, change) => {
      await h.database.exec(change);
      for (const email of EMAILS) expect(await kept(email)).toBe(await expected(email));
      for (const email of EMAILS) expect(await keptPins(email)).toBe(await expectedPins(email));
    },
  );

  it('reads of one scope at once, changes between them, each give the text of the database as read', async () => {
    await h.database.exec(`UPDATE devices SET battery_percent = 33 WHERE serial IN ('BN000050', 'BN000250')`);
    const first = [kept(EMAILS[0]!), kept(EMAILS[0]!), kept('partner@demo.test')];
    const expectedFirst = [await expected(EMAILS[0]!), await expected('partner@demo.test')];
    const answers = await Promise.all(first);
    expect(answers).toEqual([expectedFirst[0], expectedFirst[0], expectedFirst[1]]);
    // Nothing changed since: the next reads read nothing again and agree.
    const read = service.keptList.piecesRead();
    expect(await Promise.all([kept(EMAILS[0]!), kept(EMAILS[0]!)])).toEqual([expectedFirst[0], expectedFirst[0]]);
    expect(service.keptList.piecesRead()).toBe(read);
  });

  it('a device deleted through the portal leaves the list, in every encoding over HTTP', async () => {
    const gone = 'BN000029';
    const res = await request(h.app).post(`/api/v1/deleteDevice/${gone}`).set('Authorization', `Token ${distributorKey}`);
    expect(res.status).toBeLessThan(300);
    for (const email of EMAILS) expect(await kept(email)).toBe(await expected(email));
    for (const encoding of ['gzip', 'identity', 'gzip, br']) {
      const answer = await request(h.app)
        .get('/api/v1/device')
        .set('Authorization', `Token ${distributorKey}`)
        .set('Accept-Encoding', encoding)
        .set('Cache-Control', 'no-cache');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : 'gzip');
      expect(answer.text).toBe(await expected(EMAILS[0]!));
      expect(answer.text).not.toContain(gone);
    }
  });
});
