import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchCountiesFx } from '../entities/county';
import { fetchDevicePinsFx, fetchDevicesFx } from '../entities/device';
import { fakeDevice } from '../entities/device/lib/fake-device';
import { fetchOverviewFx } from '../entities/overview';
import { $sessionStatus } from '../entities/session';
import './model';

describe('app start after sign-in', () => {
  it('asks for the compact pins beside the overview at sign-in, never the full device list', async () => {
    const calls: string[] = [];
    let answerOverview: () => void = () => undefined;
    const scope = fork({
      handlers: [
        [fetchOverviewFx, () => new Promise((resolve) => (answerOverview = () => (calls.push('overview done'), resolve({ total_devices: 1 }))))],
        [fetchDevicesFx, async () => (calls.push('devices'), [fakeDevice('A1')])],
        [fetchDevicePinsFx, async () => (calls.push('pins'), [])],
        [fetchCountiesFx, async () => []],
      ] as never,
    });
    const started = allSettled($sessionStatus, { scope, params: 'signed-in' });
    await new Promise((r) => setTimeout(r, 20));
    // The pins (about 60 bytes a device) do not wait for the overview; the full list (1.1 KB a device) is not read.
    expect(calls).toEqual(['pins']);
    answerOverview();
    await started;
    expect(calls).toEqual(['pins', 'overview done']);
  });
});
