import fs from 'node:fs';
import path from 'node:path';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandClients, brands, devices, userExclusiveDevices, users } from '../../server/src/db/schema.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();

/** A valid 1x1 PNG, and a 1x1 GIF: real images, built here. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');
const TEXT = Buffer.from('this is not an image at all\n');

const DISTRIBUTOR = 'distributor@demo.test';
const CLIENT = 'client@demo.test';
const CLIENT2 = 'client2@demo.test';
const PARTNER = 'partner@demo.test';

type Brand = {
  id: number;
  name: string;
  image: string | null;
  image_url: string | null;
  clients: { id: number; email: string; name: string; company: string }[];
  deviceSerials: string[];
  device_count: number;
};

describe.each(BACKENDS)('brand calls on %s', (backend) => {
  let h: Harness;
  const keys: Record<string, string> = {};
  let seq = 0;
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const email of [DISTRIBUTOR, CLIENT, CLIENT2, PARTNER]) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  const auth = (email: string) => ({ Authorization: `Token ${keys[email]}` });
  const get = (email: string, p: string) => request(h.app).get(p).set(auth(email));
  const post = (email: string, p: string, body?: unknown) => {
    const r = request(h.app).post(p).set(auth(email));
    return body === undefined ? r : r.send(body as object);
  };
  /** A multipart add; `image: null` sends no file. */
  const addBrand = (
    email: string,
    name: string | undefined,
    image: Buffer | null = PNG,
    filename = 'logo.png',
    contentType = 'image/png',
  ) => {
    const r = request(h.app).post('/api/v1/addBrand').set(auth(email));
    if (name !== undefined) r.field('name', name);
    if (image) r.attach('image', image, { filename, contentType });
    if (name === undefined && !image) r.field('other', 'x');
    return r;
  };
  const editBrand = (
    email: string,
    id: number | string,
    name: string | undefined,
    image?: Buffer,
    filename = 'logo.png',
    contentType = 'image/png',
  ) => {
    const r = request(h.app).put(`/api/v1/brand/${id}`).set(auth(email));
    if (name !== undefined) r.field('name', name);
    if (image) r.attach('image', image, { filename, contentType });
    if (name === undefined && !image) r.field('other', 'x');
    return r;
  };
  const fresh = (prefix = 'Brand') => `${prefix} ${backend} ${++seq}`;
  const newBrand = async (name = fresh()) => {
    const res = await addBrand(DISTRIBUTOR, name);
    expect(res.status).toBe(201);
    return res.body as Brand;
  };

  const db = () => h.database.db;
  const userId = async (email: string) => (await db().select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  const brandRow = async (id: number) => (await db().select().from(brands).where(eq(brands.id, id)))[0];
  const brandIdOf = async (name: string) =>
    (await db().select({ id: brands.id }).from(brands).where(eq(brands.name, name)))[0]!.id;
  const brandCount = async () =>
    (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(brands)
    )[0]!.n;
  const clientEmailsOf = async (brandId: number) =>
    (
      await db()
        .select({ email: users.email })
        .from(brandClients)
        .innerJoin(users, eq(users.id, brandClients.userId))
        .where(eq(brandClients.brandId, brandId))
    )
      .map((r) => r.email)
      .sort();
  const serialsOfBrand = async (brandId: number, placedOnly = true) =>
    (
      await db()
        .select({ serial: devices.serial })
        .from(devices)
        .where(and(eq(devices.brandId, brandId), placedOnly ? isNotNull(devices.groupId) : undefined))
    )
      .map((r) => r.serial)
      .sort();
  const brandOfSerial = async (serial: string) =>
    (await db().select({ b: devices.brandId }).from(devices).where(eq(devices.serial, serial)))[0]!.b;
  const placedSerials = async (n: number) =>
    (
      await db()
        .select({ serial: devices.serial })
        .from(devices)
        .where(isNotNull(devices.groupId))
        .orderBy(devices.serial)
        .limit(n)
    ).map((r) => r.serial);
  const uploadsDir = () => path.join(h.dataDir, 'uploads', 'brands');
  const uploadFiles = () => fs.readdirSync(uploadsDir()).sort();
  const fileOf = (url: string) => path.join(uploadsDir(), path.basename(url));
  // superagent reads image/* answers into a Buffer.
  const fetchUpload = (url: string) => request(h.app).get(url).buffer(true);

  // ------------------------------------------------------------------ GET /brand

  describe('GET /api/v1/brand', () => {
    it('a distributor sees every brand with its clients and placed devices', async () => {
      const res = await get(DISTRIBUTOR, '/api/v1/brand');
      expect(res.status).toBe(200);
      const list = res.body as Brand[];
      const all = await db().select().from(brands);
      expect(list.map((b) => b.id).sort()).toEqual(all.map((b) => b.id).sort());
      for (const name of ['SunStop', 'Gulf Shield SPF', 'Bayou Clean', 'Crescent Care'])
        expect(list.map((b) => b.name)).toContain(name);
      for (const b of list) {
        expect(Object.keys(b).sort()).toEqual(['clients', 'deviceSerials', 'device_count', 'id', 'image', 'image_url', 'name']);
        expect(b.image).toBe(b.image_url);
        expect(b.image_url).toBe((await brandRow(b.id))!.imageUrl);
        expect([...b.deviceSerials].sort()).toEqual(await serialsOfBrand(b.id));
        expect(b.device_count).toBe(b.deviceSerials.length);
        expect(b.clients.map((c) => c.email).sort()).toEqual(await clientEmailsOf(b.id));
      }
      const gulf = list.find((b) => b.name === 'Gulf Shield SPF')!;
      expect(gulf.device_count).toBeGreaterThan(0);
      expect(gulf.clients).toContainEqual({
        id: await userId(CLIENT),
        email: CLIENT,
        name: 'Chris Client',
        company: 'Crescent City Parks',
      });
    });

    it('a client sees only the brands assigned to it, and only itself among their clients', async () => {
      const res = await get(CLIENT, '/api/v1/brand');
      expect(res.status).toBe(200);
      const list = res.body as Brand[];
      const assigned = (
        await db()
          .select({ id: brandClients.brandId })
          .from(brandClients)
          .where(eq(brandClients.userId, await userId(CLIENT)))
      ).map((r) => r.id);
      expect(list.map((b) => b.id).sort()).toEqual([...assigned].sort());
      expect(list.map((b) => b.name)).not.toContain('Bayou Clean');
      const mine = (await get(CLIENT, '/api/v1/device')).body as { serial: string; brand: number }[];
      for (const b of list) {
        expect(b.clients.map((c) => c.email)).toEqual([CLIENT]);
        expect([...b.deviceSerials].sort()).toEqual(
          mine
            .filter((d) => d.brand === b.id)
            .map((d) => d.serial)
            .sort(),
        );
      }
      // Gulf Shield SPF is shared with client2: the client does not learn about the other company.
      expect(list.find((b) => b.name === 'Gulf Shield SPF')!.clients).toHaveLength(1);
    });

    it('a market partner sees the brands of its own devices, with only those devices and no clients', async () => {
      const res = await get(PARTNER, '/api/v1/brand');
      expect(res.status).toBe(200);
      const list = res.body as Brand[];
      const own = await db()
        .select({ serial: devices.serial, brandId: devices.brandId, groupId: devices.groupId })
        .from(userExclusiveDevices)
        .innerJoin(devices, eq(devices.id, userExclusiveDevices.deviceId))
        .where(eq(userExclusiveDevices.userId, await userId(PARTNER)));
      expect(own.length).toBeGreaterThan(0);
      const brandIds = [...new Set(own.map((d) => d.brandId).filter((b): b is number => b !== null))].sort();
      expect(list.map((b) => b.id).sort()).toEqual(brandIds);
      expect(list.length).toBeLessThan(await brandCount());
      for (const b of list) {
        expect(b.clients).toEqual([]);
        expect([...b.deviceSerials].sort()).toEqual(
          own
            .filter((d) => d.brandId === b.id && d.groupId !== null)
            .map((d) => d.serial)
            .sort(),
        );
      }
    });

    it('one brand by id: 200 inside the scope, 404 outside it and for ids that cannot exist', async () => {
      const sunStop = await brandIdOf('SunStop');
      const bayou = await brandIdOf('Bayou Clean');
      expect((await get(CLIENT, `/api/v1/brand/${sunStop}`)).status).toBe(200);
      expect((await get(CLIENT, `/api/v1/brand/${sunStop}`)).body.name).toBe('SunStop');
      const hidden = await get(CLIENT, `/api/v1/brand/${bayou}`);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ detail: 'No brand with this id.' });
      expect((await get(CLIENT2, `/api/v1/brand/${bayou}`)).status).toBe(200);
      const partnerIds = ((await get(PARTNER, '/api/v1/brand')).body as Brand[]).map((b) => b.id);
      const notPartners = (await db().select({ id: brands.id }).from(brands))
        .map((b) => b.id)
        .find((id) => !partnerIds.includes(id))!;
      expect((await get(PARTNER, `/api/v1/brand/${notPartners}`)).status).toBe(404);
      expect((await get(DISTRIBUTOR, `/api/v1/brand/${bayou}`)).status).toBe(200);
      for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999', 'x'.repeat(10_240)]) {
        expect((await get(DISTRIBUTOR, `/api/v1/brand/${id}`)).status, id).toBe(404);
      }
    });

    it('no token: 401', async () => {
      expect((await request(h.app).get('/api/v1/brand')).status).toBe(401);
      expect((await request(h.app).get('/api/v1/brand/1')).status).toBe(401);
    });
  });

  // ------------------------------------------------------------------ POST /addBrand

  describe('POST /api/v1/addBrand', () => {
    it('adds a brand with a real PNG, which is then served back byte for byte', async () => {
      const name = fresh('Pelican SPF');
      const res = await addBrand(DISTRIBUTOR, `  ${name}  `);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id: expect.any(Number), name, clients: [], deviceSerials: [], device_count: 0 });
      expect(res.body.image_url).toMatch(/^\/uploads\/brands\/[0-9a-f]{32}\.png$/);
      expect(res.body.image).toBe(res.body.image_url);

      const row = await brandRow(res.body.id);
      expect(row).toMatchObject({ name, imageUrl: res.body.image_url });
      expect(((await get(DISTRIBUTOR, '/api/v1/brand')).body as Brand[]).find((b) => b.id === res.body.id)?.name).toBe(name);

      const file = await fetchUpload(res.body.image_url);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(file.body as Buffer, PNG)).toBe(0);
      expect(fs.readFileSync(fileOf(res.body.image_url))).toEqual(PNG);
    });

    it('stores a GIF by its content, whatever the filename says', async () => {
      const res = await addBrand(DISTRIBUTOR, fresh(), GIF, 'logo.png', 'image/png');
      expect(res.status).toBe(201);
      expect(res.body.image_url).toMatch(/\.gif$/);
      expect(Buffer.compare((await fetchUpload(res.body.image_url)).body as Buffer, GIF)).toBe(0);
    });

    it('answers the spec messages for a missing or blank name and a missing image, adding nothing', async () => {
      const before = await brandCount();
      const files = uploadFiles();
      const cases: [string | undefined, Buffer | null, Record<string, string[]>][] = [
        [undefined, PNG, { name: ['(Required)'] }],
        ['', PNG, { name: ['(Required)'] }],
        ['    ', PNG, { name: ['(Required)'] }],
        [fresh(), null, { image: ['Image Required'] }],
        [undefined, null, { name: ['(Required)'], image: ['Image Required'] }],
        ['', Buffer.alloc(0), { name: ['(Required)'], image: ['Image Required'] }],
        ['x'.repeat(10_240), PNG, { name: ['Ensure this field has no more than 100 characters.'] }],
      ];
      for (const [name, image, body] of cases) {
        const res = await addBrand(DISTRIBUTOR, name, image);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toEqual(body);
      }
      expect(await brandCount()).toBe(before);
      expect(uploadFiles()).toEqual(files);
    });

    it('refuses a duplicate name whatever its case, writing no file', async () => {
      const before = await brandCount();
      const files = uploadFiles();
      for (const name of ['SunStop', 'sunstop', '  SUNSTOP ']) {
        const res = await addBrand(DISTRIBUTOR, name);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ name: ['A brand with this name already exists.'] });
      }
      expect(await brandCount()).toBe(before);
      expect(uploadFiles()).toEqual(files);
    });

    it('refuses an SVG and a text file renamed .png (by content, not name or type)', async () => {
      const before = await brandCount();
      const files = uploadFiles();
      for (const [bytes, filename, type] of [
        [SVG, 'logo.svg', 'image/svg+xml'],
        [SVG, 'logo.png', 'image/png'],
        [TEXT, 'logo.png', 'image/png'],
        [PNG.subarray(0, 6), 'logo.png', 'image/png'],
      ] as const) {
        const res = await addBrand(DISTRIBUTOR, fresh(), bytes, filename, type);
        expect(res.status, filename).toBe(400);
        expect(res.body).toEqual({ image: ['Upload a PNG, JPEG, GIF or WebP image.'] });
      }
      expect(await brandCount()).toBe(before);
      expect(uploadFiles()).toEqual(files);
    });

    it('refuses an image over 2 MB with 413, and odd multipart bodies with 400, never 500', async () => {
      const before = await brandCount();
      const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
      const res = await addBrand(DISTRIBUTOR, fresh(), big);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ image: ['Image must be at most 2 MB.'] });

      const two = await request(h.app)
        .post('/api/v1/addBrand')
        .set(auth(DISTRIBUTOR))
        .field('name', fresh())
        .attach('image', PNG, 'a.png')
        .attach('image', PNG, 'b.png');
      expect(two.status).toBe(400);
      const wrongField = await request(h.app)
        .post('/api/v1/addBrand')
        .set(auth(DISTRIBUTOR))
        .field('name', fresh())
        .attach('logo', PNG, 'a.png');
      expect(wrongField.status).toBe(400);
      const broken = await request(h.app)
        .post('/api/v1/addBrand')
        .set(auth(DISTRIBUTOR))
        .set('Content-Type', 'multipart/form-data; boundary=XYZ')
        .send('--XYZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nHalf');
      expect(broken.status).toBe(400);
      const json = await post(DISTRIBUTOR, '/api/v1/addBrand', { name: fresh() });
      expect(json.status).toBe(400);
      expect(json.body).toEqual({ image: ['Image Required'] });
      const wrongType = await post(DISTRIBUTOR, '/api/v1/addBrand', { name: 42 });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.name).toEqual(['Must be a string.']);
      const malformed = await request(h.app)
        .post('/api/v1/addBrand')
        .set(auth(DISTRIBUTOR))
        .set('Content-Type', 'application/json')
        .send('{"name":');
      expect(malformed.status).toBe(400);
      expect(await brandCount()).toBe(before);
    });

    it('is for distributors only: a client or partner gets 403, no token 401, and nothing is added', async () => {
      const before = await brandCount();
      const files = uploadFiles();
      for (const email of [CLIENT, PARTNER]) {
        const res = await addBrand(email, fresh());
        expect(res.status).toBe(403);
      }
      expect((await request(h.app).post('/api/v1/addBrand').field('name', fresh()).attach('image', PNG, 'a.png')).status).toBe(
        401,
      );
      expect(await brandCount()).toBe(before);
      expect(uploadFiles()).toEqual(files);
    });
  });

  // ------------------------------------------------------------------ PUT /brand/:id

  describe('PUT /api/v1/brand/:id', () => {
    it('renames a brand, keeping its image', async () => {
      const b = await newBrand();
      const name = fresh('Renamed');
      const res = await editBrand(DISTRIBUTOR, b.id, name);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: b.id, name, image_url: b.image_url });
      expect(await brandRow(b.id)).toMatchObject({ name, imageUrl: b.image_url });
      // Its own name in another case is not a duplicate.
      expect((await editBrand(DISTRIBUTOR, b.id, name.toUpperCase())).status).toBe(200);
      expect((await brandRow(b.id))!.name).toBe(name.toUpperCase());
    });

    it('replaces the image: the new one is served, the old uploaded file is removed', async () => {
      const b = await newBrand();
      expect(fs.existsSync(fileOf(b.image_url!))).toBe(true);
      const res = await editBrand(DISTRIBUTOR, b.id, undefined, GIF, 'new.gif', 'image/gif');
      expect(res.status).toBe(200);
      expect(res.body.name).toBe(b.name);
      expect(res.body.image_url).toMatch(/^\/uploads\/brands\/[0-9a-f]{32}\.gif$/);
      expect((await brandRow(b.id))!.imageUrl).toBe(res.body.image_url);
      expect(fs.existsSync(fileOf(b.image_url!))).toBe(false);
      expect((await fetchUpload(b.image_url!)).status).toBe(404);
      const served = await fetchUpload(res.body.image_url);
      expect(served.status).toBe(200);
      expect(Buffer.compare(served.body as Buffer, GIF)).toBe(0);
    });

    it('renames and replaces together; a seeded demo logo is kept on disk', async () => {
      const id = await brandIdOf('Crescent Care');
      const seededUrl = (await brandRow(id))!.imageUrl!;
      expect(seededUrl).toMatch(/\.svg$/);
      const res = await editBrand(DISTRIBUTOR, id, 'Crescent Care Plus', PNG);
      expect(res.status).toBe(200);
      expect(res.body.name).toBe('Crescent Care Plus');
      expect(res.body.image_url).toMatch(/\.png$/);
      expect(fs.existsSync(fileOf(seededUrl))).toBe(true);
      expect((await editBrand(DISTRIBUTOR, id, 'Crescent Care')).status).toBe(200);
    });

    it('answers 400 for nothing to change, a blank name, a duplicate, a bad image; the brand stays as it was', async () => {
      const b = await newBrand();
      const files = uploadFiles();
      const cases: [string | undefined, Buffer | undefined, number, unknown][] = [
        [undefined, undefined, 400, { detail: 'Nothing to change.' }],
        ['', undefined, 400, { name: ['(Required)'] }],
        ['   ', PNG, 400, { name: ['(Required)'] }],
        ['Bayou Clean', undefined, 400, { name: ['A brand with this name already exists.'] }],
        ['bayou clean', PNG, 400, { name: ['A brand with this name already exists.'] }],
        [undefined, SVG, 400, { image: ['Upload a PNG, JPEG, GIF or WebP image.'] }],
        [undefined, TEXT, 400, { image: ['Upload a PNG, JPEG, GIF or WebP image.'] }],
        ['x'.repeat(10_240), undefined, 400, { name: ['Ensure this field has no more than 100 characters.'] }],
      ];
      for (const [name, image, status, body] of cases) {
        const res = await editBrand(DISTRIBUTOR, b.id, name, image);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body).toEqual(body);
      }
      const empty = await request(h.app).put(`/api/v1/brand/${b.id}`).set(auth(DISTRIBUTOR));
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ detail: 'Nothing to change.' });
      const big = await editBrand(DISTRIBUTOR, b.id, undefined, Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
      expect(big.status).toBe(413);
      expect(await brandRow(b.id)).toMatchObject({ name: b.name, imageUrl: b.image_url });
      expect(uploadFiles()).toEqual(files);
    });

    it('answers 404 for an unknown id, writing no file', async () => {
      const files = uploadFiles();
      expect((await editBrand(DISTRIBUTOR, 999999, fresh(), PNG)).status).toBe(404);
      expect((await editBrand(DISTRIBUTOR, 'abc', fresh())).status).toBe(404);
      expect(uploadFiles()).toEqual(files);
    });

    it('is for distributors only (a client gets 403 even on its own brand)', async () => {
      const sunStop = await brandIdOf('SunStop');
      const bayou = await brandIdOf('Bayou Clean');
      for (const email of [CLIENT, PARTNER]) {
        expect((await editBrand(email, sunStop, 'Hacked')).status).toBe(403);
        expect((await editBrand(email, bayou, 'Hacked')).status).toBe(403);
      }
      expect((await request(h.app).put(`/api/v1/brand/${sunStop}`).field('name', 'Hacked')).status).toBe(401);
      expect((await brandRow(sunStop))!.name).toBe('SunStop');
    });
  });

  // ------------------------------------------------------------------ POST /assignBrandToClient

  describe('POST /api/v1/assignBrandToClient', () => {
    it('replaces the client set (duplicates collapsed, emails lowercased) and the clients see the brand', async () => {
      const b = await newBrand();
      const res = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', {
        brandId: b.id,
        clientEmails: [CLIENT, CLIENT2, ' Client@Demo.test '],
      });
      expect(res.status).toBe(200);
      expect(res.body.clients.map((c: { email: string }) => c.email).sort()).toEqual([CLIENT, CLIENT2].sort());
      expect(await clientEmailsOf(b.id)).toEqual([CLIENT, CLIENT2].sort());
      expect(((await get(CLIENT, '/api/v1/brand')).body as Brand[]).map((x) => x.id)).toContain(b.id);
      expect((await get(CLIENT, `/api/v1/brand/${b.id}`)).status).toBe(200);

      const replaced = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: [CLIENT2] });
      expect(replaced.status).toBe(200);
      expect(await clientEmailsOf(b.id)).toEqual([CLIENT2]);
      expect(((await get(CLIENT, '/api/v1/brand')).body as Brand[]).map((x) => x.id)).not.toContain(b.id);
      expect((await get(CLIENT, `/api/v1/brand/${b.id}`)).status).toBe(404);

      const cleared = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: [] });
      expect(cleared.status).toBe(200);
      expect(cleared.body.clients).toEqual([]);
      expect(await clientEmailsOf(b.id)).toEqual([]);
    });

    it('refuses more than 5 clients, leaving the previous assignment intact', async () => {
      const b = await newBrand();
      expect((await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: [CLIENT] })).status).toBe(
        200,
      );
      const six = [CLIENT, CLIENT2, 'a@demo.test', 'b@demo.test', 'c@demo.test', 'd@demo.test'];
      const res = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: six });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ clientEmails: ['A brand can be assigned to at most 5 clients.'] });
      expect(await clientEmailsOf(b.id)).toEqual([CLIENT]);
      // Six entries naming two clients are two, not too many.
      const fiveDistinct = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', {
        brandId: b.id,
        clientEmails: [CLIENT, CLIENT, CLIENT, CLIENT, CLIENT, CLIENT2],
      });
      expect(fiveDistinct.status).toBe(200);
      expect(await clientEmailsOf(b.id)).toEqual([CLIENT, CLIENT2].sort());
    });

    it('refuses emails that are not activated clients, naming each, and changes nothing', async () => {
      const b = await newBrand();
      expect((await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: [CLIENT] })).status).toBe(
        200,
      );
      for (const bad of ['nobody@demo.test', PARTNER, DISTRIBUTOR, 'overdue@demo.test', 'signup1@demo.test']) {
        const res = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: [CLIENT2, bad] });
        expect(res.status, bad).toBe(400);
        expect(res.body).toEqual({ clientEmails: [`Unknown client: ${bad}`] });
      }
      const two = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', {
        brandId: b.id,
        clientEmails: ['x@demo.test', 'y@demo.test'],
      });
      expect(two.body).toEqual({ clientEmails: ['Unknown client: x@demo.test', 'Unknown client: y@demo.test'] });
      expect(await clientEmailsOf(b.id)).toEqual([CLIENT]);
    });

    it('answers 400 with clear messages for bad input and 404 for an unknown brand, never 500', async () => {
      const b = await newBrand();
      const cases: [unknown, Record<string, unknown>][] = [
        [{}, { brandId: ['This field is required.'], clientEmails: ['This field is required.'] }],
        [{ brandId: 'abc', clientEmails: [] }, { brandId: ['A valid integer is required.'] }],
        [{ brandId: 1.5, clientEmails: [] }, { brandId: ['A valid integer is required.'] }],
        [{ brandId: 99999999999, clientEmails: [] }, { brandId: ['A valid integer is required.'] }],
        [{ brandId: b.id, clientEmails: CLIENT }, { clientEmails: ['Must be a list of emails.'] }],
        [{ brandId: b.id, clientEmails: ['not-an-email'] }, { clientEmails: ['Enter a valid email address.'] }],
        [{ brandId: b.id, clientEmails: [42] }, { clientEmails: ['Must be a string.'] }],
        [
          { brandId: b.id, clientEmails: [`${'x'.repeat(10_240)}@demo.test`] },
          { clientEmails: ['Ensure this field has no more than 254 characters.'] },
        ],
        [[1, 2], { non_field_errors: [expect.any(String)] }],
      ];
      for (const [body, answer] of cases) {
        const res = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body).toEqual(answer);
      }
      const malformed = await request(h.app)
        .post('/api/v1/assignBrandToClient')
        .set(auth(DISTRIBUTOR))
        .set('Content-Type', 'application/json')
        .send('{"brandId":');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ detail: 'Malformed JSON in request body.' });
      const unknown = await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: 999999, clientEmails: [CLIENT] });
      expect(unknown.status).toBe(404);
      expect(await clientEmailsOf(b.id)).toEqual([]);
    });

    it('is for distributors only', async () => {
      const sunStop = await brandIdOf('SunStop');
      const before = await clientEmailsOf(sunStop);
      for (const email of [CLIENT, PARTNER]) {
        expect((await post(email, '/api/v1/assignBrandToClient', { brandId: sunStop, clientEmails: [CLIENT2] })).status).toBe(
          403,
        );
      }
      expect((await request(h.app).post('/api/v1/assignBrandToClient').send({ brandId: sunStop, clientEmails: [] })).status).toBe(
        401,
      );
      expect(await clientEmailsOf(sunStop)).toEqual(before);
    });
  });

  // ------------------------------------------------------------------ POST /assignBrandToDevice

  describe('POST /api/v1/assignBrandToDevice', () => {
    it('gives the listed devices the brand; they appear in its list and in its clients’ scope', async () => {
      const b = await newBrand();
      await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: [CLIENT2] });
      const serials = await placedSerials(2);
      const res = await post(DISTRIBUTOR, '/api/v1/assignBrandToDevice', {
        brandId: b.id,
        deviceSerials: [...serials, serials[0]],
      });
      expect(res.status).toBe(200);
      expect([...res.body.deviceSerials].sort()).toEqual([...serials].sort());
      expect(res.body.device_count).toBe(2);
      for (const s of serials) expect(await brandOfSerial(s)).toBe(b.id);
      const client2Devices = ((await get(CLIENT2, '/api/v1/device')).body as { serial: string }[]).map((d) => d.serial);
      for (const s of serials) expect(client2Devices).toContain(s);
      const listed = ((await get(DISTRIBUTOR, '/api/v1/brand')).body as Brand[]).find((x) => x.id === b.id)!;
      expect([...listed.deviceSerials].sort()).toEqual([...serials].sort());
    });

    it('refuses an empty list and unknown serials, changing no device', async () => {
      const b = await newBrand();
      const [known] = await placedSerials(1);
      const before = await brandOfSerial(known!);
      for (const body of [{ brandId: b.id, deviceSerials: [] }, { brandId: b.id }]) {
        const res = await post(DISTRIBUTOR, '/api/v1/assignBrandToDevice', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ deviceSerials: ['Select at least one device.'] });
      }
      const res = await post(DISTRIBUTOR, '/api/v1/assignBrandToDevice', {
        brandId: b.id,
        deviceSerials: [known, 'NOPE-1', 'NOPE-2'],
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ deviceSerials: ['Unknown device: NOPE-1', 'Unknown device: NOPE-2'] });
      expect(await brandOfSerial(known!)).toBe(before);
      expect(await serialsOfBrand(b.id, false)).toEqual([]);
    });

    it('answers 400 for wrong types and 10 kB serials, 404 for an unknown brand, never 500', async () => {
      const [known] = await placedSerials(1);
      const before = await brandOfSerial(known!);
      const b = await newBrand();
      for (const body of [
        { brandId: 'x', deviceSerials: [known] },
        { brandId: b.id, deviceSerials: known },
        { brandId: b.id, deviceSerials: [null] },
        { brandId: b.id, deviceSerials: [''] },
        { brandId: b.id, deviceSerials: ['x'.repeat(10_240)] },
      ]) {
        const res = await post(DISTRIBUTOR, '/api/v1/assignBrandToDevice', body);
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      }
      // A bare string goes as a form body: not JSON, so 415 (docs/decisions/json-body-type.md).
      expect((await post(DISTRIBUTOR, '/api/v1/assignBrandToDevice', 'just a string')).status).toBe(415);
      expect((await post(DISTRIBUTOR, '/api/v1/assignBrandToDevice', { brandId: 999999, deviceSerials: [known] })).status).toBe(
        404,
      );
      expect(await brandOfSerial(known!)).toBe(before);
    });

    it('is for distributors only', async () => {
      const [known] = await placedSerials(1);
      const before = await brandOfSerial(known!);
      const bayou = await brandIdOf('Bayou Clean');
      for (const email of [CLIENT, PARTNER]) {
        expect((await post(email, '/api/v1/assignBrandToDevice', { brandId: bayou, deviceSerials: [known] })).status).toBe(403);
      }
      expect(
        (
          await request(h.app)
            .post('/api/v1/assignBrandToDevice')
            .send({ brandId: bayou, deviceSerials: [known] })
        ).status,
      ).toBe(401);
      expect(await brandOfSerial(known!)).toBe(before);
    });
  });

  // ------------------------------------------------------------------ POST /deleteBrand/:id

  describe('POST /api/v1/deleteBrand/:id', () => {
    /** A new brand with clients and two devices of its own. */
    const brandWithDevices = async (serialOffset: number) => {
      const b = await newBrand();
      await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: [CLIENT] });
      const serials = (await placedSerials(serialOffset + 2)).slice(serialOffset);
      expect((await post(DISTRIBUTOR, '/api/v1/assignBrandToDevice', { brandId: b.id, deviceSerials: serials })).status).toBe(
        200,
      );
      return { ...b, serials };
    };

    it('deletes a brand without devices (no body): its clients and its uploaded logo go with it', async () => {
      const b = await newBrand();
      await post(DISTRIBUTOR, '/api/v1/assignBrandToClient', { brandId: b.id, clientEmails: [CLIENT2] });
      const res = await post(DISTRIBUTOR, `/api/v1/deleteBrand/${b.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ detail: 'Brand deleted', transferred: 0 });
      expect(await brandRow(b.id)).toBeUndefined();
      expect(await db().select().from(brandClients).where(eq(brandClients.brandId, b.id))).toEqual([]);
      expect(fs.existsSync(fileOf(b.image_url!))).toBe(false);
      expect(((await get(DISTRIBUTOR, '/api/v1/brand')).body as Brand[]).map((x) => x.id)).not.toContain(b.id);
      expect((await post(DISTRIBUTOR, `/api/v1/deleteBrand/${b.id}`)).status).toBe(404);
    });

    it('moves the devices to the transfer brand first', async () => {
      const b = await brandWithDevices(4);
      const target = await newBrand();
      const res = await post(DISTRIBUTOR, `/api/v1/deleteBrand/${b.id}`, { transferBrandId: target.id });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ detail: 'Brand deleted', transferred: 2 });
      expect(await brandRow(b.id)).toBeUndefined();
      for (const s of b.serials) expect(await brandOfSerial(s)).toBe(target.id);
      expect((await get(DISTRIBUTOR, `/api/v1/brand/${target.id}`)).body.device_count).toBe(2);
    });

    it('without a transfer the devices keep no brand', async () => {
      const b = await brandWithDevices(6);
      const res = await post(DISTRIBUTOR, `/api/v1/deleteBrand/${b.id}`, { transferBrandId: null });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ detail: 'Brand deleted', transferred: 0 });
      for (const s of b.serials) expect(await brandOfSerial(s)).toBeNull();
    });

    it('keeps a seeded demo logo on disk when its brand is deleted', async () => {
      const id = await brandIdOf('Gulf Shield SPF');
      const url = (await brandRow(id))!.imageUrl!;
      expect(url).toMatch(/\.svg$/);
      expect((await post(DISTRIBUTOR, `/api/v1/deleteBrand/${id}`, {})).status).toBe(200);
      expect(fs.existsSync(fileOf(url))).toBe(true);
    });

    it('refuses a bad transfer brand and bad input, deleting and moving nothing', async () => {
      const b = await brandWithDevices(8);
      const cases: [unknown, number, unknown][] = [
        [{ transferBrandId: b.id }, 400, { transferBrandId: ['Choose a different brand to transfer the devices to.'] }],
        [{ transferBrandId: 999999 }, 400, { transferBrandId: ['No brand with this id.'] }],
        [{ transferBrandId: 'x' }, 400, { transferBrandId: ['A valid integer is required.'] }],
        [{ transferBrandId: -3 }, 400, { transferBrandId: ['A valid integer is required.'] }],
        [['x'.repeat(10_240)], 400, { non_field_errors: [expect.any(String)] }],
      ];
      for (const [body, status, answer] of cases) {
        const res = await post(DISTRIBUTOR, `/api/v1/deleteBrand/${b.id}`, body);
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status);
        expect(res.body).toEqual(answer);
      }
      const malformed = await request(h.app)
        .post(`/api/v1/deleteBrand/${b.id}`)
        .set(auth(DISTRIBUTOR))
        .set('Content-Type', 'application/json')
        .send('{');
      expect(malformed.status).toBe(400);
      expect(await brandRow(b.id)).toBeDefined();
      for (const s of b.serials) expect(await brandOfSerial(s)).toBe(b.id);
      expect(await clientEmailsOf(b.id)).toEqual([CLIENT]);
      expect(fs.existsSync(fileOf(b.image_url!))).toBe(true);
      expect((await post(DISTRIBUTOR, '/api/v1/deleteBrand/999999')).status).toBe(404);
      expect((await post(DISTRIBUTOR, '/api/v1/deleteBrand/abc')).status).toBe(404);
    });

    it('is for distributors only', async () => {
      const bayou = await brandIdOf('Bayou Clean');
      for (const email of [CLIENT, CLIENT2, PARTNER]) {
        expect((await post(email, `/api/v1/deleteBrand/${bayou}`)).status).toBe(403);
      }
      expect((await request(h.app).post(`/api/v1/deleteBrand/${bayou}`)).status).toBe(401);
      expect(await brandRow(bayou)).toBeDefined();
    });
  });

  // ------------------------------------------------------------------ contract

  it('every brand call is in the OpenAPI document under Brands, uploads as multipart', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { tags: string[]; requestBody?: { content: Record<string, unknown> } }>>;
    };
    const calls: [string, string][] = [
      ['/api/v1/brand', 'get'],
      ['/api/v1/brand/{id}', 'get'],
      ['/api/v1/addBrand', 'post'],
      ['/api/v1/brand/{id}', 'put'],
      ['/api/v1/assignBrandToClient', 'post'],
      ['/api/v1/assignBrandToDevice', 'post'],
      ['/api/v1/deleteBrand/{id}', 'post'],
    ];
    for (const [p, m] of calls) expect(doc.paths[p]?.[m]?.tags, `${m} ${p}`).toEqual(['Brands']);
    expect(Object.keys(doc.paths['/api/v1/addBrand']!.post!.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(doc.paths['/api/v1/brand/{id}']!.put!.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(doc.paths['/api/v1/assignBrandToClient']!.post!.requestBody!.content)).toEqual(['application/json']);
  });

  it('the distributor list still matches the database after all of the above', async () => {
    const list = (await get(DISTRIBUTOR, '/api/v1/brand')).body as Brand[];
    const ids = (await db().select({ id: brands.id }).from(brands)).map((r) => r.id).sort();
    expect(list.map((b) => b.id).sort()).toEqual(ids);
    const withDevices = list.filter((b) => b.device_count > 0).map((b) => b.id);
    const placed = await db()
      .select({ brandId: devices.brandId })
      .from(devices)
      .where(and(isNotNull(devices.groupId), inArray(devices.brandId, ids)));
    expect([...new Set(placed.map((p) => p.brandId))].sort()).toEqual(withDevices.sort());
  });
  it('keeps every stored list answer equal to a fresh one after all the writes above', async () => {
    const stale = (await h.database.db.execute(
      sql`select serial from devices left join device_list_answers a on a.device_id = devices.id where a.list_json is distinct from device_list_json(devices)`,
    )) as unknown as { rows: { serial: string }[] };
    expect(stale.rows).toEqual([]);
  });
});
