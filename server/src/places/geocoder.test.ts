import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geocoderPlaces } from './geocoder.ts';
import type { PlaceCountry, PlacesProvider } from './places.provider.ts';

/**
 * The geocoder adapter against a local HTTP server answering as Nominatim's /search (format=jsonv2,
 * https://nominatim.org/release-docs/latest/api/Search/) and Pelias's /v1/search do: the places below are
 * shaped as those documents show (Nominatim's lat/lon as strings, address details; Pelias GeoJSON).
 */
const MAGAZINE = {
  place_id: 316185247,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
  osm_type: 'way',
  osm_id: 22938613,
  lat: '29.9226958',
  lon: '-90.1281548',
  category: 'leisure',
  type: 'park',
  place_rank: 30,
  importance: 0.41,
  addresstype: 'leisure',
  name: 'Audubon Zoo',
  display_name: 'Audubon Zoo, 6500, Magazine Street, Audubon, New Orleans, Orleans Parish, Louisiana, 70118, United States',
  address: {
    leisure: 'Audubon Zoo',
    house_number: '6500',
    road: 'Magazine Street',
    city: 'New Orleans',
    state: 'Louisiana',
    postcode: '70118',
    country: 'United States',
    country_code: 'us',
  },
  boundingbox: ['29.9183', '29.9272', '-90.1349', '-90.1229'],
};
const STREET = {
  ...MAGAZINE,
  place_id: 1,
  osm_type: 'node',
  osm_id: 42,
  name: '',
  lat: '29.9230',
  lon: '-90.1270',
  display_name: '6500, Magazine Street, New Orleans, Louisiana, 70118, United States',
};
const ELSEWHERE = {
  ...MAGAZINE,
  place_id: 2,
  osm_id: 43,
  display_name: 'Magazine Street, Halifax, Canada',
  address: { country_code: 'ca' },
};

describe('geocoder adapter against a local server in the documented formats', () => {
  const seen: URL[] = [];
  const agents: string[] = [];
  let reply: (url: URL) => { status: number; body: unknown } = () => ({ status: 200, body: [] });
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    seen.push(url);
    agents.push(String(req.headers['user-agent']));
    const { status, body } = reply(url);
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });
  const both = { countries: ['us', 'au'] as PlaceCountry[], limit: 5 };
  const fallback: PlacesProvider = {
    source: 'gazetteer',
    suggest: async () => [
      {
        place_id: 'gz:1',
        description: 'Fallback, LA, USA',
        main_text: 'Fallback',
        secondary_text: 'LA, USA',
        location: { lat: 1, lng: 2 },
        country: 'US',
        source: 'gazetteer',
      },
    ],
  };

  it("Nominatim: finds a street address ('6500 Magazine St New Orleans') with its coordinates, asking /search as documented", async () => {
    reply = () => ({ status: 200, body: [MAGAZINE, STREET, ELSEWHERE] });
    const places = await geocoderPlaces('nominatim', `${base}/`, fetch, {
      fallback,
      userAgent: 'fleet-portal (http://portal.test)',
    }).suggest('6500 Magazine St New Orleans', both);
    const asked = seen.at(-1)!;
    expect(asked.pathname).toBe('/search');
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      q: '6500 Magazine St New Orleans',
      format: 'jsonv2',
      countrycodes: 'us,au',
      limit: '5',
      addressdetails: '1',
    });
    expect(agents.at(-1)).toBe('fleet-portal (http://portal.test)');
    // The Canadian one is dropped (spec section 5: US and AU only); lat/lon strings become numbers.
    expect(places).toEqual([
      {
        place_id: 'nm:way:22938613',
        description: MAGAZINE.display_name,
        main_text: 'Audubon Zoo',
        secondary_text: '6500, Magazine Street, Audubon, New Orleans, Orleans Parish, Louisiana, 70118, United States',
        location: { lat: 29.9226958, lng: -90.1281548 },
        country: 'US',
        source: 'geocoder',
      },
      {
        place_id: 'nm:node:42',
        description: STREET.display_name,
        main_text: '6500 Magazine Street',
        secondary_text: STREET.display_name,
        location: { lat: 29.923, lng: -90.127 },
        country: 'US',
        source: 'geocoder',
      },
    ]);
  });

  it('Nominatim: asks only the requested country, and keeps an answer from another to itself', async () => {
    reply = () => ({ status: 200, body: [MAGAZINE] });
    const au = await geocoderPlaces('nominatim', base, fetch, { fallback }).suggest('Magazine', { countries: ['au'], limit: 3 });
    expect(seen.at(-1)!.searchParams.get('countrycodes')).toBe('au');
    expect(au).toEqual([]);
  });

  it.each([
    ['a 500', () => ({ status: 500, body: { error: 'down' } })],
    ['an answer of another shape', () => ({ status: 200, body: { error: { code: 400, message: 'Nothing to search for' } } })],
    ['a body that is not JSON', () => ({ status: 200, body: '<html>maintenance</html>' })],
  ])('Nominatim: %s answers from the gazetteer', async (_name, r) => {
    reply = r;
    const places = await geocoderPlaces('nominatim', base, fetch, { fallback }).suggest('6500 Magazine', both);
    expect(places.map((p) => p.source)).toEqual(['gazetteer']);
  });

  it('a geocoder that does not answer in time, or cannot be reached, answers from the gazetteer', async () => {
    const hang = http.createServer(() => undefined);
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const slow = await geocoderPlaces('nominatim', `http://127.0.0.1:${(hang.address() as AddressInfo).port}`, fetch, {
      fallback,
      timeoutMs: 100,
    }).suggest('x', both);
    hang.closeAllConnections();
    await new Promise((r) => hang.close(r));
    expect(slow[0]!.source).toBe('gazetteer');
    const down = await geocoderPlaces('nominatim', 'http://127.0.0.1:9', fetch, { fallback }).suggest('x', both);
    expect(down[0]!.source).toBe('gazetteer');
  });

  it('Pelias: /v1/search with boundary.country, GeoJSON [lng, lat]', async () => {
    reply = () => ({
      status: 200,
      body: {
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [-90.1281, 29.9227] },
            properties: {
              gid: 'openaddresses:address:us/la/orleans:abc',
              name: '6500 Magazine Street',
              label: '6500 Magazine Street, New Orleans, LA, USA',
              country_a: 'USA',
            },
          },
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [151.2, -33.87] },
            properties: { gid: 'whosonfirst:locality:1', name: 'Sydney', label: 'Sydney, NSW, Australia', country_a: 'AUS' },
          },
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [2.35, 48.85] },
            properties: { gid: 'x', name: 'Paris', label: 'Paris, France', country_a: 'FRA' },
          },
        ],
      },
    });
    const places = await geocoderPlaces('pelias', base, fetch, { fallback }).suggest('6500 Magazine', both);
    const asked = seen.at(-1)!;
    expect(asked.pathname).toBe('/v1/search');
    expect(asked.searchParams.get('text')).toBe('6500 Magazine');
    expect(asked.searchParams.get('boundary.country')).toBe('USA,AUS');
    expect(asked.searchParams.get('size')).toBe('5');
    expect(places.map((p) => [p.main_text, p.secondary_text, p.country, p.location])).toEqual([
      ['6500 Magazine Street', 'New Orleans, LA, USA', 'US', { lat: 29.9227, lng: -90.1281 }],
      ['Sydney', 'NSW, Australia', 'AU', { lat: -33.87, lng: 151.2 }],
    ]);
  });
});
