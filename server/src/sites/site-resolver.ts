import { and, sql } from 'drizzle-orm';
import { geoContains } from 'd3-geo';
import { find as findTimezone } from 'geo-tz';
import type { FeatureCollection } from 'geojson';
import type { Db } from '../db/client.ts';
import { deviceGroups, locations } from '../db/schema.ts';
import { countyDisplayName, locationFromCounty, usCountyAt } from '../places/index.ts';

type Tx = Pick<Db, 'select' | 'insert'>;

/** About 50 m: two placements this close with the same address are one site. */
const SAME_SITE_DEGREES = 0.0005;

/** The IANA time zone of a point, from the packaged boundary data (no web service). */
export function timezoneAt(lat: number, lng: number): string | null {
  return timezonesAt(lat, lng)[0] ?? null;
}

/** Every IANA zone the boundary data gives a point (more than one on a disputed or shared border), first the usual one. */
export function timezonesAt(lat: number, lng: number): string[] {
  try {
    return findTimezone(lat, lng);
  } catch {
    return [];
  }
}

/**
 * The site (device group) for an address and its coordinates: an existing one at the same address and
 * place, else a new one in the county whose outline holds the point (created from the US counties data
 * set when the portal has none yet), with its time zone derived from the coordinates.
 */
export async function resolveSite(tx: Tx, input: { address: string; lat: number; lng: number; name: string }): Promise<number> {
  const [existing] = await tx
    .select({ id: deviceGroups.id })
    .from(deviceGroups)
    .where(
      and(
        sql`lower(${deviceGroups.address}) = lower(${input.address})`,
        sql`abs(${deviceGroups.lat} - ${input.lat}) < ${SAME_SITE_DEGREES}`,
        sql`abs(${deviceGroups.lng} - ${input.lng}) < ${SAME_SITE_DEGREES}`,
      ),
    )
    .limit(1);
  if (existing) return existing.id;
  const locationId = await countyFor(tx, input.lat, input.lng);
  const [created] = await tx
    .insert(deviceGroups)
    .values({
      name: input.name,
      address: input.address,
      lat: input.lat,
      lng: input.lng,
      locationId,
      timezoneId: timezoneAt(input.lat, input.lng),
    })
    .returning({ id: deviceGroups.id });
  return created!.id;
}

/** The county (location row) whose outline contains the point; null outside the US data set (e.g. Australia). */
export async function countyFor(tx: Tx, lat: number, lng: number): Promise<number | null> {
  const rows = await tx.select({ id: locations.id, geoJson: locations.geoJson }).from(locations);
  for (const row of rows) {
    const first = (JSON.parse(row.geoJson) as FeatureCollection).features[0];
    if (first && geoContains(first, [lng, lat])) return row.id;
  }
  const county = usCountyAt(lat, lng);
  if (!county || typeof county.id !== 'string') return null;
  const { name, state } = countyDisplayName(county);
  const [created] = await tx
    .insert(locations)
    .values(locationFromCounty(county.id, name, state))
    .returning({ id: locations.id });
  return created!.id;
}
