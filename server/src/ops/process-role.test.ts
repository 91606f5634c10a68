import { describe, expect, it } from 'vitest';
import { processRole, roleRequirements } from './process-role.ts';

describe('processRole', () => {
  it('is all-in-one unless told otherwise, by flag or FLEET_ROLE', () => {
    expect(processRole([], {})).toBe('all');
    expect(processRole(['--role=server'], {})).toBe('server');
    expect(processRole(['--role', 'worker'], {})).toBe('worker');
    expect(processRole([], { FLEET_ROLE: 'worker' })).toBe('worker');
    expect(processRole(['--role=server'], { FLEET_ROLE: 'worker' })).toBe('server');
    expect(() => processRole(['--role=both'], {})).toThrow(/Unknown role 'both'/);
  });

  it('refuses a scaled role without the shared database, Redis and (workers) the device API', () => {
    expect(roleRequirements('all', {})).toEqual([]);
    expect(roleRequirements('server', { databaseUrl: 'postgres://x', redisUrl: 'redis://x' })).toEqual([]);
    expect(roleRequirements('server', {})).toHaveLength(2);
    expect(roleRequirements('worker', { databaseUrl: 'postgres://x', redisUrl: 'redis://x' })).toEqual([expect.stringMatching(/DEVICE_API_URL/)]);
  });
});
