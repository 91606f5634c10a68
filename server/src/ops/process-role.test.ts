import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processRole, roleRequirements, sharedSecretProblems } from './process-role.ts';

const root = path.resolve(import.meta.dirname, '../../..');

describe('processRole', () => {
  it('is all-in-one unless told otherwise, by flag or FLEET_ROLE', () => {
    expect(processRole([], {})).toBe('all');
    expect(processRole(['--role=server'], {})).toBe('server');
    expect(processRole(['--role', 'worker'], {})).toBe('worker');
    expect(processRole([], { FLEET_ROLE: 'worker' })).toBe('worker');
    expect(processRole(['--role=server'], { FLEET_ROLE: 'worker' })).toBe('server');
    expect(processRole(['--role=gateway'], {})).toBe('gateway');
    expect(() => processRole(['--role=both'], {})).toThrow(/Unknown role 'both'/);
  });

  it('refuses a scaled role without the shared database, Redis and (workers) the device API', () => {
    expect(roleRequirements('all', {})).toEqual([]);
    expect(roleRequirements('server', { databaseUrl: 'postgres://x', redisUrl: 'redis://x' })).toEqual([]);
    expect(roleRequirements('server', {})).toHaveLength(2);
    expect(roleRequirements('worker', { databaseUrl: 'postgres://x', redisUrl: 'redis://x' })).toEqual([
      expect.stringMatching(/DEVICE_API_URL/),
    ]);
    // The device gateway shares the database and nothing else.
    expect(roleRequirements('gateway', { databaseUrl: 'postgres://x' })).toEqual([]);
    expect(roleRequirements('gateway', { redisUrl: 'redis://x' })).toEqual([
      expect.stringMatching(/^gateway needs DATABASE_URL/),
    ]);
  });
});

describe('shared secrets of the scaled roles', () => {
  const all = { SECRET_KEY: 'k'.repeat(32), MAINTENANCE_TOKEN: 'm'.repeat(32), SERVICE_TOKEN: 's'.repeat(32) };

  it('a server or worker needs SECRET_KEY, MAINTENANCE_TOKEN and SERVICE_TOKEN from the environment; npm start does not', () => {
    expect(sharedSecretProblems('all', {})).toEqual([]);
    expect(sharedSecretProblems('server', all)).toEqual([]);
    expect(sharedSecretProblems('worker', all)).toEqual([]);
    expect(sharedSecretProblems('gateway', all)).toEqual([]);
    const [problem] = sharedSecretProblems('server', {});
    expect(problem).toMatch(/^server needs SECRET_KEY, MAINTENANCE_TOKEN, SERVICE_TOKEN set in the environment/);
    // Only the missing ones are named; blank counts as missing.
    expect(sharedSecretProblems('worker', { ...all, MAINTENANCE_TOKEN: '  ', SERVICE_TOKEN: undefined })).toEqual([
      expect.stringMatching(/^worker needs MAINTENANCE_TOKEN, SERVICE_TOKEN set/),
    ]);
  });

  it('start:server without them exits 1 with that message, before writing any development secret', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-role-'));
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/main.ts', '--role=server'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'development',
        DATA_DIR: dataDir,
        SECRET_KEY: all.SECRET_KEY,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        REDIS_URL: 'redis://127.0.0.1:1',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Refusing to start: server needs MAINTENANCE_TOKEN, SERVICE_TOKEN set in the environment/);
    expect(fs.existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
  });
});
