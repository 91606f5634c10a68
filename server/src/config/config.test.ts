import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-config-'));

describe('loadConfig', () => {
  it('defaults to port 8080 and ./data, and seeds the demo outside production', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe(dir);
    expect(c.seedDemo).toBe(true);
    expect(c.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({}).dataDir).toBe(path.resolve('./data'));
  });

  it('takes MAP_STYLE_URL as an http(s) URL or a path on this server, and refuses anything else', () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).mapStyleUrl).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, MAP_STYLE_URL: ' https://tiles.example.org/style.json ' }).mapStyleUrl).toBe(
      'https://tiles.example.org/style.json',
    );
    expect(loadConfig({ DATA_DIR: dir, MAP_STYLE_URL: '/basemap/style.json' }).mapStyleUrl).toBe('/basemap/style.json');
    expect(() => loadConfig({ DATA_DIR: dir, MAP_STYLE_URL: 'javascript:alert(1)' })).toThrow(ConfigError);
  });

  it("takes a check-in's synchronous_commit from CHECKIN_SYNCHRONOUS_COMMIT: off unless set, one of PostgreSQL's values", () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).checkinSynchronousCommit).toBe('off');
    expect(loadConfig({ DATA_DIR: dir, CHECKIN_SYNCHRONOUS_COMMIT: ' On ' }).checkinSynchronousCommit).toBe('on');
    expect(loadConfig({ DATA_DIR: dir, CHECKIN_SYNCHRONOUS_COMMIT: 'remote_apply' }).checkinSynchronousCommit).toBe(
      'remote_apply',
    );
    expect(() => loadConfig({ DATA_DIR: dir, CHECKIN_SYNCHRONOUS_COMMIT: 'on; drop table devices' })).toThrow(
      /CHECKIN_SYNCHRONOUS_COMMIT must be one of off, local, remote_write, on, remote_apply/,
    );
  });

  it('honours PORT and DATA_DIR', () => {
    const dir = tmp();
    const c = loadConfig({ PORT: '9191', DATA_DIR: dir });
    expect(c.port).toBe(9191);
    expect(c.publicUrl).toBe('http://localhost:9191');
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: dir })).toThrow(ConfigError);
  });

  it('generates development secrets once and keeps them in DATA_DIR, never in the code', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.secretKey).toMatch(/^[0-9a-f]{64}$/);
    expect(b.secretKey).toBe(a.secretKey);
    expect(b.maintenanceToken).toBe(a.maintenanceToken);
    expect(b.serviceToken).toBe(a.serviceToken);
    expect(a.serviceToken).not.toBe(a.secretKey);
    expect(loadConfig({ DATA_DIR: tmp() }).secretKey).not.toBe(a.secretKey);
    expect((fs.statSync(path.join(dir, 'secrets.json')).mode & 0o777).toString(8)).toBe('600');
  });

  it('a scaled role (generateSecrets false) takes its secrets from the environment only and writes none', () => {
    const dir = tmp();
    const shared = { SECRET_KEY: 's'.repeat(32), MAINTENANCE_TOKEN: 'm'.repeat(32), SERVICE_TOKEN: 't'.repeat(32) };
    const c = loadConfig({ DATA_DIR: dir, ...shared }, { generateSecrets: false });
    expect(c.secretKey).toBe(shared.SECRET_KEY);
    expect(c.serviceToken).toBe(shared.SERVICE_TOKEN);
    // No webhook key of its own (the other servers would not know it): the webhook answers 503.
    expect(c.billing.webhookSecret).toBeUndefined();
    expect(fs.existsSync(path.join(dir, 'secrets.json'))).toBe(false);
    expect(
      loadConfig({ DATA_DIR: dir, ...shared, BILLING_WEBHOOK_SECRET: 'w'.repeat(32) }, { generateSecrets: false }).billing
        .webhookSecret,
    ).toBe('w'.repeat(32));
    expect(() => loadConfig({ DATA_DIR: dir, ...shared, SERVICE_TOKEN: ' ' }, { generateSecrets: false })).toThrow(
      /SERVICE_TOKEN must be set/,
    );
    expect(fs.existsSync(path.join(dir, 'secrets.json'))).toBe(false);
  });

  it('refuses to start in production without real secrets', () => {
    const dir = tmp();
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir })).toThrow(/SECRET_KEY must be set/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, SECRET_KEY: 'change-me', MAINTENANCE_TOKEN: 'change-me' }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir, SECRET_KEY: 'x'.repeat(40), MAINTENANCE_TOKEN: 'short' }),
    ).toThrow(/MAINTENANCE_TOKEN must be at least 24/);
    expect(fs.existsSync(path.join(dir, 'secrets.json'))).toBe(false);
  });

  it('seeds nothing in production', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp(), SECRET_KEY: 'a'.repeat(40), MAINTENANCE_TOKEN: 'b'.repeat(40) }),
    ).toThrow(/SERVICE_TOKEN must be set/);
    const c = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: tmp(),
      SECRET_KEY: 'a'.repeat(40),
      MAINTENANCE_TOKEN: 'b'.repeat(40),
      SERVICE_TOKEN: 'c'.repeat(40),
    });
    expect(c.isProduction).toBe(true);
    expect(c.seedDemo).toBe(false);
  });

  it('listens where HOST says: unset or blank, every interface (as main.ts passes it to listen); an address is kept', async () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).host).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, HOST: '  ' }).host).toBeUndefined();
    expect(loadConfig({ DATA_DIR: dir, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: dir, HOST: ' 0.0.0.0 ' }).host).toBe('0.0.0.0');
    // What the server then binds: the unspecified address (IPv6 '::' where the host has it), or the one given.
    const bound = async (host: string | undefined) => {
      const server = http.createServer();
      await new Promise<void>((resolve) => server.listen(0, host, resolve));
      const { address } = server.address() as AddressInfo;
      await new Promise((r) => server.close(r));
      return address;
    };
    expect(['::', '0.0.0.0']).toContain(await bound(loadConfig({ DATA_DIR: dir }).host));
    expect(await bound(loadConfig({ DATA_DIR: dir, HOST: '127.0.0.1' }).host)).toBe('127.0.0.1');
  });
});
