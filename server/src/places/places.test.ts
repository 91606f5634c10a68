import { describe, expect, it, vi } from 'vitest';
import { placeById, placesInBox, suggestFromGazetteer } from './gazetteer.ts';
import { AUTOCOMPLETE_URL, DETAILS_FIELD_MASK, googlePlaces } from './google-places.ts';
import { placesProviderFor, type PlaceCountry, type PlacesProvider } from './places.provider.ts';

const both = { countries: ['us', 'au'] as PlaceCountry[], limit: 8 };
const suggest = (input: string, opts = both) => suggestFromGazetteer(input, opts);
const near = (actual: { lat: number; lng: number }, lat: number, lng: number) => {
  expect(Math.abs(actual.lat - lat)).toBeLessThan(0.2);
  expect(Math.abs(actual.lng - lng)).toBeLessThan(0.2);
};

describe('gazetteer (offline, US and AU towns)', () => {
  it('names the towns of a map view, most populous first, bigger ones only when asked', async () => {
    const box = { west: -90.6, south: 29.7, east: -89.9, north: 30.2 };
    const towns = await placesInBox(box, 1000, 50);
    expect(towns[0]).toMatchObject({ name: 'New Orleans', state: 'LA' });
    expect(towns.map((t) => t.name)).toContain('Metairie');
    expect(towns.every((t, i) => i === 0 || towns[i - 1]!.population >= t.population)).toBe(true);
    expect(towns.every((t) => t.lat >= box.south && t.lat <= box.north && t.lng >= box.west && t.lng <= box.east)).toBe(true);
    const big = await placesInBox(box, 300_000, 50);
    expect(big.map((t) => t.name)).toEqual(['New Orleans']);
    expect(await placesInBox(box, 1000, 3)).toHaveLength(3);
  });

  it("ranks New Orleans first for 'new orl', with its coordinates", async () => {
    const [first] = await suggest('new orl');
    expect(first).toMatchObject({
      description: 'New Orleans, LA, USA',
      main_text: 'New Orleans',
      secondary_text: 'LA, USA',
      country: 'US',
      source: 'gazetteer',
    });
    expect(first!.place_id).toMatch(/^gz:\d+$/);
    near(first!.location, 29.95, -90.07);
  });

  it("finds Metairie for 'metai', and a trailing state with or without a comma", async () => {
    expect((await suggest('metai')).map((s) => s.description)).toContain('Metairie, LA, USA');
    expect((await suggest('Metairie, LA'))[0]!.description).toBe('Metairie, LA, USA');
    expect((await suggest('Metairie, LA, USA'))[0]!.description).toBe('Metairie, LA, USA');
    expect((await suggest('metairie, lou'))[0]!.description).toBe('Metairie, LA, USA');
    expect((await suggest('New Orleans LA'))[0]!.description).toBe('New Orleans, LA, USA');
    expect((await suggest('Springfield IL')).every((s) => s.secondary_text === 'IL, USA')).toBe(true);
  });

  it('keeps to Australia with country au', async () => {
    const au = await suggest('sydney', { countries: ['au'], limit: 8 });
    expect(au[0]!.description).toBe('Sydney, NSW, Australia');
    expect(au.every((s) => s.country === 'AU')).toBe(true);
    near(au[0]!.location, -33.87, 151.21);
    const us = await suggest('sydney', { countries: ['us'], limit: 8 });
    expect(us.every((s) => s.country === 'US')).toBe(true);
  });

  it('maps Australian admin codes to state abbreviations', async () => {
    const first = async (q: string) => (await suggest(q, { countries: ['au'], limit: 1 }))[0]?.description;
    expect(await first('melbourne')).toBe('Melbourne, VIC, Australia');
    expect(await first('brisbane')).toBe('Brisbane, QLD, Australia');
    expect(await first('perth')).toBe('Perth, WA, Australia');
    expect(await first('adelaide')).toBe('Adelaide, SA, Australia');
    expect(await first('hobart')).toBe('Hobart, TAS, Australia');
    expect(await first('darwin')).toBe('Darwin, NT, Australia');
    expect(await first('canberra')).toBe('Canberra, ACT, Australia');
    expect((await suggest('Perth, TAS'))[0]!.description).toBe('Perth, TAS, Australia');
  });

  it('ignores case, accents and punctuation; knows St/Saint', async () => {
    expect((await suggest('CAÑON CITY'))[0]!.main_text).toBe('Cañon City');
    expect((await suggest('canon city'))[0]!.main_text).toBe('Cañon City');
    expect((await suggest('ofallon')).map((s) => s.main_text)).toContain("O'Fallon");
    expect((await suggest('saint louis'))[0]!.description).toBe('St. Louis, MO, USA');
    expect((await suggest('orleans')).map((s) => s.description)).toContain('New Orleans, LA, USA');
  });

  it('answers nothing for gibberish, punctuation only, or a postcode (the gazetteer is town level)', async () => {
    expect(await suggest('xqzzvplk')).toEqual([]);
    expect(await suggest('?!,.')).toEqual([]);
    expect(await suggest('70003')).toEqual([]);
  });

  it('honours the limit and never repeats a line', async () => {
    const many = await suggest('s', { countries: ['us', 'au'], limit: 20 });
    expect(many).toHaveLength(20);
    expect(new Set(many.map((s) => s.description)).size).toBe(20);
    expect(await suggest('s', { countries: ['us', 'au'], limit: 3 })).toHaveLength(3);
  });

  it('re-resolves a suggestion by its place_id', async () => {
    const [first] = await suggest('new orl');
    expect(await placeById(first!.place_id)).toEqual(first);
    expect(await placeById('gz:1')).toBeUndefined();
    expect(await placeById('ChIJabc')).toBeUndefined();
  });
});

/** A fake fetch at the network boundary: answers by URL, records every request. */
function fakeFetch(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer(String(url), init ?? {});
  });
  return { fetch: fn as unknown as typeof fetch, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const googleAnswer = (url: string) => {
  if (url === AUTOCOMPLETE_URL) {
    return json({
      suggestions: [
        {
          placePrediction: {
            place: 'places/ChIJ-metairie',
            placeId: 'ChIJ-metairie',
            text: { text: 'Metairie, LA, USA' },
            structuredFormat: { mainText: { text: 'Metairie' }, secondaryText: { text: 'LA, USA' } },
          },
        },
        { queryPrediction: { text: { text: 'metairie pizza' } } },
        {
          placePrediction: {
            placeId: 'ChIJ-manly',
            text: { text: 'Manly NSW, Australia' },
            structuredFormat: { mainText: { text: 'Manly' }, secondaryText: { text: 'NSW, Australia' } },
          },
        },
      ],
    });
  }
  if (url.endsWith('/ChIJ-metairie'))
    return json({ formattedAddress: 'Metairie, LA, USA', location: { latitude: 29.984, longitude: -90.153 } });
  if (url.endsWith('/ChIJ-manly'))
    return json({ formattedAddress: 'Manly NSW 2095, Australia', location: { latitude: -33.797, longitude: 151.288 } });
  return json({ error: { code: 404 } }, 404);
};

const recordingFallback = (): PlacesProvider & { inputs: string[] } => {
  const inputs: string[] = [];
  return {
    source: 'gazetteer',
    inputs,
    async suggest(input) {
      inputs.push(input);
      return [
        {
          place_id: 'gz:1',
          description: 'Fallback, LA, USA',
          main_text: 'Fallback',
          secondary_text: 'LA, USA',
          location: { lat: 30, lng: -90 },
          country: 'US',
          source: 'gazetteer',
        },
      ];
    },
  };
};

describe('Google Places provider (fake fetch; no network here)', () => {
  it('builds the autocomplete and place details requests of the Places API (New)', async () => {
    const { fetch, calls } = fakeFetch(googleAnswer);
    const fallback = recordingFallback();
    const result = await googlePlaces('KEY123', fetch, { fallback }).suggest('metai', both);

    const [auto, ...details] = calls;
    expect(auto!.url).toBe('https://places.googleapis.com/v1/places:autocomplete');
    expect(auto!.init.method).toBe('POST');
    const headers = new Headers(auto!.init.headers);
    expect(headers.get('X-Goog-Api-Key')).toBe('KEY123');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(auto!.init.body))).toEqual({
      input: 'metai',
      includedRegionCodes: ['us', 'au'],
      languageCode: 'en',
    });
    expect(auto!.init.signal).toBeInstanceOf(AbortSignal);

    expect(details.map((c) => c.url)).toEqual([
      'https://places.googleapis.com/v1/places/ChIJ-metairie',
      'https://places.googleapis.com/v1/places/ChIJ-manly',
    ]);
    for (const c of details) {
      const h = new Headers(c.init.headers);
      expect(h.get('X-Goog-Api-Key')).toBe('KEY123');
      expect(h.get('X-Goog-FieldMask')).toBe(DETAILS_FIELD_MASK);
      expect(DETAILS_FIELD_MASK).toBe('location,formattedAddress');
      expect(c.init.method).toBe('GET');
    }
    for (const c of calls) expect(c.url).not.toContain('KEY123');

    expect(result).toEqual([
      {
        place_id: 'ChIJ-metairie',
        description: 'Metairie, LA, USA',
        main_text: 'Metairie',
        secondary_text: 'LA, USA',
        location: { lat: 29.984, lng: -90.153 },
        country: 'US',
        source: 'google',
      },
      {
        place_id: 'ChIJ-manly',
        description: 'Manly NSW, Australia',
        main_text: 'Manly',
        secondary_text: 'NSW, Australia',
        location: { lat: -33.797, lng: 151.288 },
        country: 'AU',
        source: 'google',
      },
    ]);
    expect(fallback.inputs).toEqual([]);
  });

  it('sends only the requested regions and resolves at most `limit` predictions', async () => {
    const { fetch, calls } = fakeFetch(googleAnswer);
    const result = await googlePlaces('K', fetch, { fallback: recordingFallback() }).suggest('man', {
      countries: ['au'],
      limit: 1,
    });
    expect(JSON.parse(String(calls[0]!.init.body)).includedRegionCodes).toEqual(['au']);
    expect(calls).toHaveLength(2);
    expect(result).toHaveLength(1);
  });

  it('answers no suggestions without calling place details when Google has none', async () => {
    const { fetch, calls } = fakeFetch(() => json({}));
    const fallback = recordingFallback();
    expect(await googlePlaces('K', fetch, { fallback }).suggest('zzz', both)).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(fallback.inputs).toEqual([]);
  });

  it.each([
    ['a refused key (403)', () => json({ error: { code: 403, status: 'PERMISSION_DENIED' } }, 403)],
    ['a network failure', () => Promise.reject(new TypeError('fetch failed'))],
    ['a body that is not JSON', () => new Response('<html>oops</html>', { status: 200 })],
    ['an unexpected shape', () => json({ suggestions: 'nope' })],
  ])('falls back to the gazetteer on %s', async (_label, answer) => {
    const { fetch } = fakeFetch(answer);
    const fallback = recordingFallback();
    const log = vi.fn();
    const result = await googlePlaces('K', fetch, { fallback, log }).suggest('metai', both);
    expect(result.map((s) => s.source)).toEqual(['gazetteer']);
    expect(fallback.inputs).toEqual(['metai']);
    expect(log).toHaveBeenCalledOnce();
  });

  it('falls back when a place details call fails or has no location', async () => {
    for (const details of [json({}, 500), json({ formattedAddress: 'Metairie, LA, USA' })]) {
      const { fetch } = fakeFetch((url) => (url === AUTOCOMPLETE_URL ? googleAnswer(url) : details.clone()));
      const fallback = recordingFallback();
      expect((await googlePlaces('K', fetch, { fallback }).suggest('metai', both))[0]!.source).toBe('gazetteer');
    }
  });

  it('falls back when Google does not answer in time', async () => {
    const { fetch } = fakeFetch(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal!.reason));
        }),
    );
    const fallback = recordingFallback();
    const result = await googlePlaces('K', fetch, { fallback, timeoutMs: 50 }).suggest('metai', both);
    expect(result[0]!.source).toBe('gazetteer');
  });

  it('falls back to the real gazetteer by default', async () => {
    const { fetch } = fakeFetch(() => json({}, 500));
    const result = await googlePlaces('K', fetch).suggest('new orl', both);
    expect(result[0]).toMatchObject({ description: 'New Orleans, LA, USA', source: 'gazetteer' });
  });

  it('is chosen only when GOOGLE_MAPS_API_KEY is configured', () => {
    const none = { geocoder: undefined, publicUrl: 'http://portal.test' };
    expect(placesProviderFor({ googleMapsApiKey: undefined, ...none }).source).toBe('gazetteer');
    expect(placesProviderFor({ googleMapsApiKey: 'K', ...none }).source).toBe('google');
    // A configured geocoder is the address search's own choice: it comes before Google's key (which also serves the map).
    const geocoder = { url: 'http://127.0.0.1:1', kind: 'nominatim' as const };
    expect(placesProviderFor({ googleMapsApiKey: 'K', geocoder, publicUrl: 'http://portal.test' }).source).toBe('geocoder');
  });
});
