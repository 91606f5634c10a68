import type { Incident, Severity } from '@fleet/shared';
import { pageZone } from '../../shared/lib';

export const SEVERITY_LABEL: Record<Severity, string> = { critical: 'Critical', warning: 'Warning', info: 'Info' };
export const STATE_LABEL: Record<Incident['state'], string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

/** The one zone a screen of incidents shows its times in: the sites' shared zone, else UTC (named on the screen). */
export const incidentsZone = (incidents: readonly Incident[]) =>
  pageZone(incidents.filter((i) => i.site !== null).map((i) => i.site?.timezone_id));

/** Where an incident is: its site's name, or the account for an account-level incident (an overdue subscription). */
export const incidentPlace = (incident: Pick<Incident, 'site'>) => incident.site?.name ?? 'Account';

/** The sites the incidents seen so far were at, by name: the Incidents view's scope filter. */
export function siteOptions(known: ReadonlyMap<number, string>, incidents: readonly Incident[]): Map<number, string> {
  let next: Map<number, string> | null = null;
  for (const i of incidents) {
    if (i.site && !known.has(i.site.id)) {
      next ??= new Map(known);
      next.set(i.site.id, i.site.name);
    }
  }
  return next ?? (known as Map<number, string>);
}
