import type { Incident } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import {
  acknowledgeIncidentFx,
  fetchIncidentFx,
  fetchIncidentsFx,
  resolveIncidentFx,
  type IncidentFilter,
} from '../../entities/incident';
import { HttpError } from '../../shared/api';
import { incidentNotifiedReceived } from '../../shared/realtime';
import {
  $answer,
  $detail,
  $fieldErrors,
  $incidents,
  $listStatus,
  $sites,
  acknowledgeClicked,
  incidentSelected,
  incidentsOpened,
  resolveSubmitted,
  severityFilterChanged,
} from './model';
import { devicesText } from './ui/incidents-dialog';

const incident = (over: Partial<Incident> = {}): Incident => ({
  id: 7,
  state: 'open',
  severity: 'critical',
  condition: 'OFFLINE',
  reason: 'Offline: missed its expected check-ins',
  site: { id: 3, name: 'North Depot', address: '1 Main St', timezone_id: 'America/Chicago' },
  serials: ['SN-1', 'SN-2'],
  openedAt: '2026-11-29T01:00:00Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
  resolvedAt: null,
  timeline: [{ at: '2026-11-29T01:00:00Z', kind: 'raised', text: 'Raised: Offline at SN-1', by: null }],
  ...over,
});

describe('the Incidents view', () => {
  it('loads the open incidents on opening, again on a filter change and on a notice, and keeps the sites seen', async () => {
    const asked: IncidentFilter[] = [];
    const scope = fork({
      handlers: [
        [
          fetchIncidentsFx,
          async (filter: IncidentFilter) => {
            asked.push(filter);
            return [incident()];
          },
        ],
      ],
    });
    // Closed: a notice loads nothing.
    await allSettled(incidentNotifiedReceived, { scope, params: { ...noticeOf(7), notificationId: 1 } });
    expect(asked).toHaveLength(0);
    await allSettled(incidentsOpened, { scope });
    expect(asked[0]).toEqual({ state: 'open', severity: null, siteId: null });
    await allSettled(severityFilterChanged, { scope, params: 'critical' });
    expect(asked[1]).toEqual({ state: 'open', severity: 'critical', siteId: null });
    await allSettled(incidentNotifiedReceived, { scope, params: { ...noticeOf(8), notificationId: 2 } });
    expect(asked).toHaveLength(3);
    expect(scope.getState($incidents)).toHaveLength(1);
    expect(scope.getState($listStatus)).toBe('ready');
    expect([...scope.getState($sites)]).toEqual([[3, 'North Depot']]);
  });

  it('acknowledges the incident shown and shows the answer; a 400 on Resolve is shown beside the note', async () => {
    const scope = fork({
      handlers: [
        [fetchIncidentsFx, async () => [incident()]],
        [fetchIncidentFx, async () => incident()],
        [
          acknowledgeIncidentFx,
          async () => incident({ state: 'acknowledged', acknowledgedBy: 'Ann Lee', acknowledgedAt: '2026-11-29T01:05:00Z' }),
        ],
        [
          resolveIncidentFx,
          async () => {
            throw new HttpError(400, { note: ['Required.'] });
          },
        ],
      ],
    });
    await allSettled(incidentsOpened, { scope });
    await allSettled(incidentSelected, { scope, params: 7 });
    expect(scope.getState($detail)?.state).toBe('open');
    await allSettled(acknowledgeClicked, { scope });
    expect(scope.getState($detail)).toMatchObject({ state: 'acknowledged', acknowledgedBy: 'Ann Lee' });
    expect(scope.getState($answer)).toEqual({ kind: 'acknowledge', status: 'done', text: 'Acknowledged. Escalation stops.' });
    await allSettled(resolveSubmitted, { scope, params: '' });
    expect(scope.getState($answer)).toMatchObject({
      kind: 'resolve',
      status: 'failed',
      text: 'Not resolved: see the message under the note.',
    });
    expect(scope.getState($fieldErrors)).toEqual({ note: 'Required.' });
    expect(scope.getState($detail)?.state).toBe('acknowledged');
  });

  it('says a carrier outage over twenty devices in one line', () => {
    expect(devicesText(['A', 'B'])).toBe('A, B');
    expect(devicesText(Array.from({ length: 20 }, (_, i) => `SN-${i + 1}`))).toBe('SN-1, SN-2, SN-3 and 17 more');
    expect(devicesText([])).toBe('No device (account)');
  });
});

function noticeOf(id: number) {
  return {
    id,
    state: 'open' as const,
    severity: 'critical' as const,
    reason: 'Offline',
    site: 'North Depot',
    at: '2026-11-29T01:00:00Z',
    kind: 'raised' as const,
  };
}
