import { describe, expect, it } from 'vitest';
import { calibrate } from './slow-host.ts';

/** A host whose /healthz falls linearly with the load's duty cycle. */
const host = (idle: number) => async (duty: number) => idle * (1 - 0.8 * duty);

describe('slow-host calibration', () => {
  it('finds the duty cycle at which /healthz reads the target within 5 %', async () => {
    const c = await calibrate(host(12_900), { target: 4900 });
    expect(c.alreadySlow).toBe(false);
    expect(Math.abs(c.rps - 4900)).toBeLessThanOrEqual(4900 * 0.05);
    expect(c.duty).toBeGreaterThan(0.5);
    expect(c.steps[0]).toEqual({ duty: 0, rps: 12_900 });
  });

  it('adds no load on a host already at or below the target', async () => {
    const c = await calibrate(host(4700), { target: 4900 });
    expect(c).toMatchObject({ duty: 0, rps: 4700, alreadySlow: true });
    expect(c.steps).toHaveLength(1);
  });

  it('answers the closest step when the load cannot bring the host down to the target', async () => {
    const c = await calibrate(async (duty) => 20_000 * (1 - 0.2 * duty), { target: 4900, maxSteps: 4 });
    expect(c.steps).toHaveLength(5);
    expect(c.duty).toBe(c.steps.slice(1).reduce((a, b) => (b.rps < a.rps ? b : a)).duty);
  });
});
