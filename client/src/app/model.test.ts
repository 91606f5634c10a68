import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchCountiesFx } from '../entities/county';
import { fetchDevicesFx } from '../entities/device';
import { fakeDevice } from '../entities/device/lib/fake-device';
import { fetchOverviewFx } from '../entities/overview';
import { $sessionStatus } from '../entities/session';
import './model';

describe('app start after sign-in', () => {
  it('asks for the fleet list only once the overview has answered', async () => {
    const calls: string[] = [];
    let answerOverview: () => void = () => undefined;
    const scope = fork({
      handlers: [
        [fetchOverviewFx, () => new Promise((resolve) => (answerOverview = () => (calls.push('overview done'), resolve({ total_devices: 1 }))))],
        [fetchDevicesFx, async () => (calls.push('devices'), [fakeDevice('A1')])],
        [fetchCountiesFx, async () => []],
      ] as never,
    });
    const started = allSettled($sessionStatus, { scope, params: 'signed-in' });
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toEqual([]);
    answerOverview();
    await started;
    expect(calls).toEqual(['overview done', 'devices']);
  });
});
