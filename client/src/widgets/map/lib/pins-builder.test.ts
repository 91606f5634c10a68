import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PinSource } from './pins';

/** A worker whose script cannot start: it reports an error after the first message. */
class FailingWorker extends EventTarget {
  postMessage() {
    queueMicrotask(() => this.dispatchEvent(new Event('error')));
  }
  terminate() {}
}

const device = (serial: string): PinSource => ({
  serial,
  label: serial,
  location: { lat: 30, lng: -90 },
  location_group: 1,
  number: 1,
  is_pause: false,
  is_warning: false,
  is_online: true,
  is_registration: false,
});

describe('buildPins', () => {
  // The module graph transformed once (seconds on a loaded host), outside the tests' own time.
  beforeAll(async () => {
    await import('./pins-builder');
    vi.resetModules();
  }, 120_000);
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  // Each test imports the module anew: it keeps its worker (or that it has none) in module state. The
  // timeouts are long for a loaded CI host; a build left without an answer would wait for ever.
  it('builds on this thread when the worker fails', async () => {
    vi.stubGlobal('Worker', FailingWorker);
    const { buildPins } = await import('./pins-builder');
    // Packed once to be posted, packed again on this thread after the worker failed.
    await expect(buildPins([device('A1'), device('B2')])).resolves.toMatchObject({ count: 2 });
  }, 30_000);

  it('rejects a build that fails on this thread too, instead of leaving it unanswered', async () => {
    vi.stubGlobal('Worker', FailingWorker);
    const { buildPins } = await import('./pins-builder');
    let reads = 0;
    const failsSecondTime = {
      ...device('C3'),
      get serial() {
        if (++reads > 1) throw new Error('gone');
        return 'C3';
      },
    };
    await expect(buildPins([failsSecondTime])).rejects.toThrow('gone');
  }, 30_000);
});
