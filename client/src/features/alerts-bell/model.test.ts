import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchInboxFx, markReadFx, type Inbox } from '../../entities/incident';
import { incidentNotifiedReceived, socketConnected } from '../../shared/realtime';
import { $latestNotice, $unread, bellClicked, bellStarted } from './model';
import { bellLabel } from './ui/alerts-bell';

const notice = (notificationId: number, id = 7) => ({
  id,
  notificationId,
  state: 'open' as const,
  severity: 'critical' as const,
  reason: 'Offline: missed its check-ins',
  site: 'North Depot',
  at: '2026-11-29T01:00:00Z',
  kind: 'raised' as const,
});
const inbox = (unread: number, ids: number[]): Inbox => ({
  unread,
  items: ids.map((id) => ({ id, incidentId: 7, kind: 'first', at: '2026-11-29T01:00:00Z', read: false })),
});

describe('the bell', () => {
  it('starts from the inbox, counts each live notice once by its notificationId, and knows those the inbox had', async () => {
    const scope = fork({ handlers: [[fetchInboxFx, async () => inbox(2, [10, 11])]] });
    await allSettled(bellStarted, { scope });
    expect(scope.getState($unread)).toBe(2);
    await allSettled(incidentNotifiedReceived, { scope, params: notice(11) }); // already in the inbox
    await allSettled(incidentNotifiedReceived, { scope, params: notice(12) });
    await allSettled(incidentNotifiedReceived, { scope, params: notice(12) }); // sent twice after a restart
    expect(scope.getState($unread)).toBe(3);
    expect(scope.getState($latestNotice)?.notificationId).toBe(12);
    expect(bellLabel(scope.getState($unread))).toBe('Notifications, 3 unread');
    expect(bellLabel(0)).toBe('Notifications, none unread');
  });

  it('reads the inbox again after a reconnect, and opening it marks everything read', async () => {
    let calls = 0;
    let marked: unknown = 'not called';
    const scope = fork({
      handlers: [
        [fetchInboxFx, async () => inbox(++calls, [])],
        [
          markReadFx,
          async (incidentId: number | null) => {
            marked = incidentId;
            return inbox(0, []);
          },
        ],
      ],
    });
    await allSettled(bellStarted, { scope });
    await allSettled(socketConnected, { scope, params: { reconnect: false } });
    expect(calls).toBe(1);
    await allSettled(socketConnected, { scope, params: { reconnect: true } });
    expect(scope.getState($unread)).toBe(2);
    await allSettled(bellClicked, { scope });
    expect(marked).toBeNull();
    expect(scope.getState($unread)).toBe(0);
  });
});
