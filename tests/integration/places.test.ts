import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Address suggestions for the Add/Edit Device form (spec section 5: US and AU only), through the whole app.
 * The harness has no GOOGLE_MAPS_API_KEY, so this is the offline gazetteer. The route does not touch the
 * database, so PGlite alone is enough here.
 */
describe('GET /api/v1/placeSuggestions', () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness('pglite');
    token = (await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })).body
      .auth_token;
    expect(token).toBeTruthy();
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (query: Record<string, string> | string) =>
    request(h.app).get('/api/v1/placeSuggestions').query(query).set('Authorization', `Token ${token}`);

  it('answers 401 without a token or with a wrong one', async () => {
    expect((await request(h.app).get('/api/v1/placeSuggestions').query({ input: 'new orl' })).status).toBe(401);
    const wrong = await request(h.app)
      .get('/api/v1/placeSuggestions')
      .query({ input: 'new orl' })
      .set('Authorization', 'Token nope');
    expect(wrong.status).toBe(401);
  });

  it('answers suggestions with coordinates to a distributor', async () => {
    const res = await get({ input: 'new orl' });
    expect(res.status).toBe(200);
    expect(res.body.source).toBe('gazetteer');
    expect(res.body.suggestions[0]).toMatchObject({
      description: 'New Orleans, LA, USA',
      main_text: 'New Orleans',
      secondary_text: 'LA, USA',
      country: 'US',
      source: 'gazetteer',
      location: { lat: expect.closeTo(29.95, 1), lng: expect.closeTo(-90.07, 1) },
    });
    expect(res.body.suggestions.length).toBeLessThanOrEqual(8);
  });

  it('takes a state after the name, a country filter and a limit', async () => {
    expect((await get({ input: 'Metairie, LA' })).body.suggestions[0].description).toBe('Metairie, LA, USA');
    const au = await get({ input: 'sydney', country: 'au', limit: '3' });
    expect(au.status).toBe(200);
    expect(au.body.suggestions).toHaveLength(3);
    expect(au.body.suggestions[0].description).toBe('Sydney, NSW, Australia');
    expect(au.body.suggestions.every((s: { country: string }) => s.country === 'AU')).toBe(true);
    expect((await get({ input: 's', country: 'US, AU', limit: '20' })).body.suggestions).toHaveLength(20);
  });

  it('answers an empty list, not an error, when nothing matches', async () => {
    for (const input of ['xqzzvplk', '70003', '%%%']) {
      const res = await get({ input });
      expect(res.status).toBe(200);
      expect(res.body.suggestions).toEqual([]);
    }
  });

  it('answers 400 with the field for a missing, blank or 10 kB input, a bad country or limit, never 500', async () => {
    const cases: [Record<string, string> | string, string][] = [
      [{}, 'input'],
      [{ input: '   ' }, 'input'],
      [{ input: 'x'.repeat(101) }, 'input'],
      [{ input: 'x'.repeat(10_240) }, 'input'],
      ['input=a&input=b', 'input'],
      [{ input: 'sydney', country: 'nz' }, 'country'],
      [{ input: 'sydney', country: 'us,nz' }, 'country'],
      [{ input: 'sydney', country: '' }, 'country'],
      [{ input: 'sydney', limit: '0' }, 'limit'],
      [{ input: 'sydney', limit: '21' }, 'limit'],
      [{ input: 'sydney', limit: 'ten' }, 'limit'],
      [{ input: 'sydney', limit: '2.5' }, 'limit'],
    ];
    for (const [query, field] of cases) {
      const res = await get(query);
      expect(res.status, JSON.stringify(query).slice(0, 80)).toBe(400);
      expect(Object.keys(res.body)).toEqual([field]);
      expect(res.body[field][0]).toEqual(expect.any(String));
    }
  });

  it('is in the OpenAPI document under Places', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body;
    const op = doc.paths['/api/v1/placeSuggestions'].get;
    expect(op.tags).toEqual(['Places']);
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['country', 'input', 'limit']);
  });
});

/** The label of a pin dropped by hand in the Add/Edit Device form (issue 42): the nearest gazetteer town. */
describe('GET /api/v1/nearestPlace', () => {
  let h: Harness;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness('pglite');
    for (const email of ['distributor@demo.test', 'client@demo.test']) {
      tokens[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
      expect(tokens[email]).toBeTruthy();
    }
  });
  afterAll(async () => {
    await h?.close();
  });
  const get = (query: Record<string, string> | string, email = 'distributor@demo.test') =>
    request(h.app).get('/api/v1/nearestPlace').query(query).set('Authorization', `Token ${tokens[email]}`);

  it('answers 401 without a token', async () => {
    expect((await request(h.app).get('/api/v1/nearestPlace').query({ lat: '29.92', lng: '-90.1' })).status).toBe(401);
  });

  it('names the town, county and state nearest a point on Magazine Street, New Orleans', async () => {
    const res = await get({ lat: '29.9213', lng: '-90.1036' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'New Orleans',
      county: 'Orleans Parish',
      state: 'LA',
      lat: expect.any(Number),
      lng: expect.any(Number),
      distanceKm: expect.any(Number),
    });
    expect(res.body.distanceKm).toBeLessThan(10);
    // Metairie, in Jefferson Parish; Sydney in Australia has no US county.
    expect((await get({ lat: '29.9841', lng: '-90.1529' })).body).toMatchObject({
      name: 'Metairie',
      county: 'Jefferson Parish',
      state: 'LA',
    });
    expect((await get({ lat: '-33.8688', lng: '151.2093' }, 'client@demo.test')).body).toMatchObject({
      name: 'Sydney',
      county: null,
      state: 'NSW',
    });
  });

  it('answers 404 far from any town (mid-Pacific)', async () => {
    const res = await get({ lat: '0', lng: '-150' });
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/No town/);
  });

  it('answers 400 naming the field for a missing, blank, repeated or out-of-range coordinate, never 500', async () => {
    const cases: [Record<string, string> | string, string[]][] = [
      [{}, ['lat', 'lng']],
      [{ lat: '', lng: '-90' }, ['lat']],
      [{ lat: '29', lng: 'west' }, ['lng']],
      [{ lat: '91', lng: '0' }, ['lat']],
      [{ lat: '0', lng: '-180.5' }, ['lng']],
      ['lat=1&lat=2&lng=3', ['lat']],
      [{ lat: 'NaN', lng: 'Infinity' }, ['lat', 'lng']],
    ];
    for (const [query, fields] of cases) {
      const res = await get(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(fields);
    }
  });
});

/**
 * With GEOCODER_URL the address search asks that geocoder (here a local server answering as Nominatim's
 * /search does, format=jsonv2): a street address finds the street, not the city centre.
 */
describe('the address search with a Nominatim geocoder, ', () => {
  let h: Harness;
  let token: string;
  const asked: URLSearchParams[] = [];
  const nominatim = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    asked.push(url.searchParams);
    const body =
      url.pathname === '/search'
        ? [
            {
              place_id: 7,
              osm_type: 'node',
              osm_id: 99,
              lat: '29.9230',
              lon: '-90.1270',
              name: '',
              display_name: '6500, Magazine Street, New Orleans, Louisiana, 70118, United States',
              address: {
                house_number: '6500',
                road: 'Magazine Street',
                city: 'New Orleans',
                state: 'Louisiana',
                country_code: 'us',
              },
            },
          ]
        : [];
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  beforeAll(async () => {
    await new Promise<void>((r) => nominatim.listen(0, '127.0.0.1', r));
    h = await startHarness('pglite', {
      geocoder: { url: `http://127.0.0.1:${(nominatim.address() as AddressInfo).port}`, kind: 'nominatim' },
    });
    token = (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' })).body
      .auth_token;
  });
  afterAll(async () => {
    await h?.close();
    await new Promise((r) => nominatim.close(r));
  });

  it("finds '6500 Magazine St New Orleans' at the street, limited to US and AU", async () => {
    const res = await request(h.app)
      .get('/api/v1/placeSuggestions')
      .query({ input: '6500 Magazine St New Orleans' })
      .set('Authorization', `Token ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.source).toBe('geocoder');
    expect(res.body.suggestions).toEqual([
      expect.objectContaining({
        main_text: '6500 Magazine Street',
        location: { lat: 29.923, lng: -90.127 },
        country: 'US',
        source: 'geocoder',
      }),
    ]);
    expect(asked.at(-1)!.get('q')).toBe('6500 Magazine St New Orleans');
    expect(asked.at(-1)!.get('format')).toBe('jsonv2');
    expect(asked.at(-1)!.get('countrycodes')).toBe('us,au');
    await request(h.app)
      .get('/api/v1/placeSuggestions')
      .query({ input: 'Magazine', country: 'au' })
      .set('Authorization', `Token ${token}`)
      .expect(200);
    expect(asked.at(-1)!.get('countrycodes')).toBe('au');
  });
});
