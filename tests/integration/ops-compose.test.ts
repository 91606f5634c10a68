import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * No Docker engine runs here, so the deployment files are checked by reading them: every service of the
 * portal's image runs an npm script that exists, every variable the compose file uses is documented in
 * .env.example, and the image and proxy have what the scaled run relies on.
 */
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

type Service = { image?: string; build?: unknown; command?: string[] | string; environment?: Record<string, unknown>; deploy?: { replicas?: number }; volumes?: string[]; healthcheck?: unknown };
const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const documented = new Set([...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
const ours = Object.entries(services).filter(([, s]) => s.build !== undefined || s.image?.startsWith('fleet-portal'));

describe('docker-compose.yml', () => {
  it('runs PostgreSQL, a persistent Redis, a mail catcher, a proxy, two servers, two workers and the simulator', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'mail', 'proxy', 'server', 'worker', 'simulator']));
    expect(services.postgres!.image).toMatch(/^postgres:/);
    expect(services.redis!.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    expect(services.redis!.volumes?.some((v) => v.endsWith(':/data'))).toBe(true);
    expect(services.server!.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(services.worker!.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(services.proxy!.image).toMatch(/^nginx:/);
  });

  it("runs each of the portal's services with an npm script that exists", () => {
    expect(ours.map(([name]) => name)).toEqual(expect.arrayContaining(['server', 'worker', 'simulator']));
    for (const [name, s] of ours) {
      const command = Array.isArray(s.command) ? s.command : String(s.command ?? '').split(/\s+/);
      expect(command.slice(0, 2), name).toEqual(['npm', 'run']);
      expect(Object.keys(scripts), `${name}: npm run ${command[2]}`).toContain(command[2]);
    }
    expect(services.server!.command).toEqual(['npm', 'run', 'start:server']);
    expect(services.worker!.command).toEqual(['npm', 'run', 'start:worker']);
    expect(scripts['start:server']).toMatch(/--role=server/);
    expect(scripts['start:worker']).toMatch(/--role=worker/);
  });

  it('uses only variables that .env.example documents, and sets no secret literally', () => {
    const used = new Set<string>();
    for (const m of composeText.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) used.add(m[1]!);
    for (const [, s] of ours) for (const key of Object.keys(s.environment ?? {})) used.add(key);
    const missing = [...used].filter((v) => !documented.has(v));
    expect(missing).toEqual([]);
    for (const [, s] of ours) {
      for (const secret of ['SECRET_KEY', 'MAINTENANCE_TOKEN', 'SERVICE_TOKEN']) expect(String(s.environment?.[secret])).toMatch(/^\$\{/);
    }
  });

  it('validates with docker-compose where it is installed', () => {
    let bin: string | undefined;
    try {
      execFileSync('docker-compose', ['version'], { stdio: 'ignore' });
      bin = 'docker-compose';
    } catch {
      return; // not installed here (no Docker engine either): the checks above stand
    }
    const env = { ...process.env, POSTGRES_PASSWORD: 'p'.repeat(24), SECRET_KEY: 's'.repeat(32), MAINTENANCE_TOKEN: 'm'.repeat(32), SERVICE_TOKEN: 't'.repeat(32), SIMULATOR_PASSWORD: 'x' };
    execFileSync(bin, ['-f', path.join(root, 'docker-compose.yml'), 'config', '--quiet'], { env, stdio: 'pipe' });
  });
});

describe('Dockerfile, .dockerignore and the proxy', () => {
  const dockerfile = read('Dockerfile');
  it('builds in stages: the client at build time, production dependencies only, a non-root user, a health check', () => {
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/RUN npm run build -w client/);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/COPY --from=client \/app\/client\/dist client\/dist/);
    const user = dockerfile.match(/^USER (\S+)/m)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/healthz/m);
    // Every COPY source of the build context exists.
    for (const m of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)) for (const src of m[1]!.split(/\s+/)) expect(fs.existsSync(path.join(root, src)), src).toBe(true);
  });

  it('keeps secrets, local data and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['.env', '**/node_modules', 'data', '.git']));
  });

  it('proxies WebSocket upgrades to the server replicas', () => {
    const nginx = read('deploy/nginx.conf');
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
    expect(nginx).toMatch(/server server:8080/);
    expect(composeText).toMatch(/\.\/deploy\/nginx\.conf:\/etc\/nginx\/conf\.d\/default\.conf/);
  });
});
