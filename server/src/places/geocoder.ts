import type { GeocoderKind } from '../config/config.ts';
import { gazetteerPlaces } from './gazetteer.ts';
import type { PlaceSuggestion, PlacesProvider, SuggestOptions } from './places.provider.ts';

/**
 * The address search against a self-hosted or hosted geocoder (GEOCODER_URL): street addresses such as
 * '6500 Magazine St New Orleans', which the town gazetteer cannot find. Two documented APIs:
 *
 * - Nominatim (default): `GET {url}/search?q=...&format=jsonv2&countrycodes=us,au&limit=N&addressdetails=1`
 *   answering a JSON array of places (lat/lon as strings, display_name, name, address{...}, place_id);
 *   https://nominatim.org/release-docs/latest/api/Search/.
 * - Pelias (GEOCODER_KIND=pelias): `GET {url}/v1/search?text=...&boundary.country=USA,AUS&size=N` answering
 *   GeoJSON features (coordinates [lng, lat], properties.gid, label, name, country_a); https://github.com/pelias/documentation/blob/master/search.md.
 *
 * Only US and Australian places are asked for and kept (spec section 5). Any failure (network, timeout,
 * non-2xx, an answer of another shape) answers from the fallback, the gazetteer, as Google's adapter does.
 */
export type GeocoderOptions = {
  fallback?: PlacesProvider;
  /** Per request (default 4 s). */
  timeoutMs?: number;
  /** Nominatim's usage policy asks every client to name itself. */
  userAgent?: string;
  log?: (msg: string, err?: unknown) => void;
};

class GeocoderError extends Error {}

type NominatimPlace = {
  place_id?: number | string;
  osm_type?: string;
  osm_id?: number | string;
  lat?: string | number;
  lon?: string | number;
  name?: string;
  display_name?: string;
  address?: Record<string, string | undefined>;
};

type PeliasAnswer = {
  features?: {
    geometry?: { coordinates?: [number, number] };
    properties?: { gid?: string; id?: string; label?: string; name?: string; country_a?: string; country_code?: string };
  }[];
};

const ALPHA3: Record<string, 'US' | 'AU'> = { USA: 'US', AUS: 'AU', US: 'US', AU: 'AU' };

/** Splits a one-line address into the dropdown's bold first part and the rest. */
function parts(description: string, main?: string): { main: string; secondary: string } {
  const first = main?.trim() || description.split(',')[0]!.trim();
  const rest = description.startsWith(first) ? description.slice(first.length).replace(/^\s*,\s*/, '') : description;
  return { main: first, secondary: rest };
}

/** The street line Nominatim's address details give ('6500 Magazine Street'), else its name. */
function nominatimMain(p: NominatimPlace): string | undefined {
  const a = p.address ?? {};
  const street = [a.house_number, a.road].filter(Boolean).join(' ');
  return p.name?.trim() || street || undefined;
}

export function geocoderPlaces(
  kind: GeocoderKind,
  baseUrl: string,
  fetchImpl: typeof fetch = fetch,
  options: GeocoderOptions = {},
): PlacesProvider {
  const fallback = options.fallback ?? gazetteerPlaces();
  const timeoutMs = options.timeoutMs ?? 4000;
  const base = baseUrl.replace(/\/+$/, '');
  const headers = { Accept: 'application/json', 'User-Agent': options.userAgent ?? 'fleet-portal', 'Accept-Language': 'en' };

  async function get<T>(url: string): Promise<T> {
    const res = await fetchImpl(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new GeocoderError(`The geocoder answered ${res.status}`);
    return (await res.json()) as T;
  }

  async function nominatim(input: string, opts: SuggestOptions): Promise<PlaceSuggestion[]> {
    const q = new URLSearchParams({
      q: input,
      format: 'jsonv2',
      countrycodes: opts.countries.join(','),
      limit: String(opts.limit),
      addressdetails: '1',
    });
    const answer = await get<unknown>(`${base}/search?${q}`);
    if (!Array.isArray(answer)) throw new GeocoderError('Unexpected Nominatim answer (not a list)');
    const out: PlaceSuggestion[] = [];
    for (const p of answer as NominatimPlace[]) {
      const lat = Number(p?.lat);
      const lng = Number(p?.lon);
      const country = ALPHA3[(p?.address?.country_code ?? '').toUpperCase()];
      const description = p?.display_name?.trim();
      if (
        !Number.isFinite(lat) ||
        !Number.isFinite(lng) ||
        !country ||
        !description ||
        !opts.countries.includes(country.toLowerCase() as 'us' | 'au')
      )
        continue;
      const { main, secondary } = parts(description, nominatimMain(p));
      const id = p.osm_type && p.osm_id != null ? `${p.osm_type}:${p.osm_id}` : String(p.place_id ?? `${lat},${lng}`);
      out.push({
        place_id: `nm:${id}`,
        description,
        main_text: main,
        secondary_text: secondary,
        location: { lat, lng },
        country,
        source: 'geocoder',
      });
    }
    return out.slice(0, opts.limit);
  }

  async function pelias(input: string, opts: SuggestOptions): Promise<PlaceSuggestion[]> {
    const alpha3 = opts.countries.map((c) => (c === 'us' ? 'USA' : 'AUS')).join(',');
    const q = new URLSearchParams({ text: input, 'boundary.country': alpha3, size: String(opts.limit), lang: 'en' });
    const answer = await get<PeliasAnswer>(`${base}/v1/search?${q}`);
    if (answer === null || typeof answer !== 'object' || !Array.isArray(answer.features))
      throw new GeocoderError('Unexpected Pelias answer (no features)');
    const out: PlaceSuggestion[] = [];
    for (const f of answer.features) {
      const [lng, lat] = f?.geometry?.coordinates ?? [];
      const country = ALPHA3[(f?.properties?.country_a ?? f?.properties?.country_code ?? '').toUpperCase()];
      const description = f?.properties?.label?.trim();
      if (
        typeof lat !== 'number' ||
        typeof lng !== 'number' ||
        !country ||
        !description ||
        !opts.countries.includes(country.toLowerCase() as 'us' | 'au')
      )
        continue;
      const { main, secondary } = parts(description, f.properties?.name);
      out.push({
        place_id: `pl:${f.properties?.gid ?? f.properties?.id ?? `${lat},${lng}`}`,
        description,
        main_text: main,
        secondary_text: secondary,
        location: { lat, lng },
        country,
        source: 'geocoder',
      });
    }
    return out.slice(0, opts.limit);
  }

  return {
    source: 'geocoder',
    async suggest(input, opts) {
      try {
        return await (kind === 'pelias' ? pelias(input, opts) : nominatim(input, opts));
      } catch (err) {
        options.log?.(`The geocoder (${kind}) failed; answering from the gazetteer`, err);
        return fallback.suggest(input, opts);
      }
    },
  };
}
