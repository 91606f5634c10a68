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

type Service = {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, unknown>;
  deploy?: { replicas?: number };
  volumes?: string[];
  healthcheck?: unknown;
};
const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const documented = new Set([...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
const ours = Object.entries(services).filter(([, s]) => s.build !== undefined || s.image?.startsWith('fleet-portal'));

describe('docker-compose.yml', () => {
  it('runs PostgreSQL, a persistent Redis, a mail catcher, a proxy, two servers, two device gateways, two workers and the simulator', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'mail', 'proxy', 'server', 'gateway', 'worker', 'simulator']),
    );
    expect(services.postgres!.image).toMatch(/^postgres:/);
    expect(services.redis!.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    expect(services.redis!.volumes?.some((v) => v.endsWith(':/data'))).toBe(true);
    expect(services.server!.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(services.worker!.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(services.gateway!.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(services.proxy!.image).toMatch(/^nginx:/);
  });

  it("runs each of the portal's services with an npm script that exists", () => {
    expect(ours.map(([name]) => name)).toEqual(expect.arrayContaining(['server', 'gateway', 'worker', 'simulator']));
    for (const [name, s] of ours) {
      const command = Array.isArray(s.command) ? s.command : String(s.command ?? '').split(/\s+/);
      expect(command.slice(0, 2), name).toEqual(['npm', 'run']);
      expect(Object.keys(scripts), `${name}: npm run ${command[2]}`).toContain(command[2]);
    }
    expect(services.server!.command).toEqual(['npm', 'run', 'start:server']);
    expect(services.worker!.command).toEqual(['npm', 'run', 'start:worker']);
    expect(scripts['start:server']).toMatch(/--role=server/);
    expect(scripts['start:worker']).toMatch(/--role=worker/);
    expect(services.gateway!.command).toEqual(['npm', 'run', 'start:gateway']);
    expect(scripts['start:gateway']).toMatch(/--role=gateway/);
  });

  it('uses only variables that .env.example documents, and sets no secret literally', () => {
    const used = new Set<string>();
    for (const m of composeText.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)) used.add(m[1]!);
    for (const [, s] of ours) for (const key of Object.keys(s.environment ?? {})) used.add(key);
    const missing = [...used].filter((v) => !documented.has(v));
    expect(missing).toEqual([]);
    for (const [, s] of ours) {
      for (const secret of ['SECRET_KEY', 'MAINTENANCE_TOKEN', 'SERVICE_TOKEN'])
        expect(String(s.environment?.[secret])).toMatch(/^\$\{/);
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
    const env = {
      ...process.env,
      POSTGRES_PASSWORD: 'p'.repeat(24),
      SECRET_KEY: 's'.repeat(32),
      MAINTENANCE_TOKEN: 'm'.repeat(32),
      SERVICE_TOKEN: 't'.repeat(32),
      SIMULATOR_PASSWORD: 'x',
    };
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
    for (const m of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm))
      for (const src of m[1]!.split(/\s+/)) expect(fs.existsSync(path.join(root, src)), src).toBe(true);
  });

  it('keeps secrets, local data and dependencies out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['.env', '**/node_modules', 'data', '.git']));
  });

  it('proxies WebSocket upgrades to the server replicas', () => {
    const nginx = read('deploy/nginx.conf');
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(nginx).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
    expect(nginx).toMatch(/server server:8080/);
    expect(composeText).toMatch(/\.\/deploy\/nginx\.conf:\/etc\/nginx\/conf\.d\/default\.conf/);
  });

  it('re-resolves the server replicas, so `--scale server=4` reaches the new ones', () => {
    const conf = parseNginx(read('deploy/nginx.conf'));
    // Compose's DNS, answers kept 10 s; the upstream in a shared zone with `resolve` on its server.
    expect(conf.find((d) => d.name === 'resolver')?.args).toEqual(expect.arrayContaining(['127.0.0.11', 'valid=10s']));
    const upstream = conf.find((d) => d.name === 'upstream' && d.args[0] === 'portal')!;
    expect(upstream.block!.find((d) => d.name === 'zone')?.args[0]).toBe('portal');
    const servers = upstream.block!.filter((d) => d.name === 'server');
    expect(servers).toHaveLength(1);
    expect(servers[0]!.args.slice(0, 2)).toEqual(['server:8080', 'resolve']);
    // The gateway replicas likewise (`--scale gateway=4`).
    const gateways = conf.find((d) => d.name === 'upstream' && d.args[0] === 'gateway')!.block!;
    expect(gateways.find((d) => d.name === 'zone')?.args[0]).toBe('gateway');
    expect(gateways.filter((d) => d.name === 'server').map((d) => d.args.slice(0, 2))).toEqual([['gateway:8080', 'resolve']]);
    // `resolve` in an open-source upstream: nginx 1.27.3 and later, so the image tag is pinned at or above it.
    const tag = services.proxy!.image!.split(':')[1]!;
    expect(tag).toMatch(/^\d+\.\d+(\.\d+)?$/);
    const [major, minor, patch = 0] = tag.split('.').map(Number) as [number, number, number?];
    expect(major * 1e6 + minor * 1e3 + patch, services.proxy!.image).toBeGreaterThanOrEqual(1 * 1e6 + 27 * 1e3 + 3);
  });

  it('does not answer /metrics on the public port, in either proxy configuration', () => {
    for (const file of ['deploy/nginx.conf', 'deploy/nginx.local.conf']) {
      const server = serverBlockOf(parseNginx(read(file)));
      // The location nginx picks for a path: a matching regex location wins over the prefix ones.
      const pick = (uri: string) => {
        const regex = server.filter((d) => d.name === 'location' && d.args[0]?.startsWith('~'));
        const hit = regex.find((d) => new RegExp(d.args[1]!, d.args[0] === '~*' ? 'i' : '').test(uri));
        if (hit) return hit;
        const prefix = server.filter(
          (d) => d.name === 'location' && !d.args[0]!.startsWith('~') && uri.startsWith(d.args.at(-1)!),
        );
        return prefix.sort((a, b) => b.args.at(-1)!.length - a.args.at(-1)!.length)[0]!;
      };
      const proxied = (uri: string) => pick(uri).block!.some((d) => d.name === 'proxy_pass');
      // Express answers /metrics in any case and with a trailing slash: none of them passes.
      for (const uri of ['/metrics', '/METRICS', '/Metrics/']) {
        expect(proxied(uri), `${file} ${uri}`).toBe(false);
        expect(pick(uri).block, `${file} ${uri}`).toContainEqual({ name: 'deny', args: ['all'] });
      }
      for (const uri of ['/', '/api/v1/device/SP240001', '/socket.io/', '/readyz', '/metricsboard'])
        expect(proxied(uri), `${file} ${uri}`).toBe(true);
      // Devices reach the gateway replicas, browsers and the workers' polls the portal servers.
      const upstreamOf = (uri: string) => pick(uri).block!.find((d) => d.name === 'proxy_pass')?.args[0];
      for (const uri of ['/device/v1/checkin', '/device/v1/config'])
        expect(upstreamOf(uri), `${file} ${uri}`).toBe('http://gateway');
      for (const uri of ['/', '/api/v1/device/SP240001', '/api/v1/deviceSecret/SP240001', '/socket.io/'])
        expect(upstreamOf(uri), `${file} ${uri}`).toBe('http://portal');
    }
  });
});

describe('deploy/nginx.local.conf, the proxy of the README without compose', () => {
  // The commands of the scaled run without compose live in docs/operations.md (they were in the README).
  const readme = read('docs/operations.md');
  const local = parseNginx(read('deploy/nginx.local.conf'));
  const steps = readme.slice(readme.indexOf('### Without it'), readme.indexOf('\n## ', readme.indexOf('### Without it')));

  it('is a whole nginx.conf that the README runs', () => {
    expect(local.filter((d) => d.block).map((d) => d.name)).toEqual(['events', 'http']);
    expect(steps).toMatch(/^sudo nginx -c "\$PWD\/deploy\/nginx\.local\.conf"$/m);
  });

  it("has the upstream the README describes: the README's two servers, hashed by client address, kept alive", () => {
    const http = local.find((d) => d.name === 'http')!.block!;
    const upstream = http.find((d) => d.name === 'upstream' && d.args[0] === 'portal')!.block!;
    expect(upstream.find((d) => d.name === 'hash')?.args).toEqual(['$remote_addr', 'consistent']);
    expect(upstream.find((d) => d.name === 'keepalive')?.args).toEqual(['32']);
    const readmeServers = [...steps.matchAll(/^PORT=(\d+) HOST=127\.0\.0\.1 npm run start:server$/gm)].map(
      (m) => `127.0.0.1:${m[1]}`,
    );
    expect(readmeServers).toHaveLength(2);
    expect(upstream.filter((d) => d.name === 'server').map((d) => d.args[0])).toEqual(readmeServers);
    // The README's gateway process is the gateway upstream.
    const readmeGateways = [...steps.matchAll(/^PORT=(\d+) HOST=127\.0\.0\.1 npm run start:gateway$/gm)].map(
      (m) => `127.0.0.1:${m[1]}`,
    );
    expect(readmeGateways).toHaveLength(1);
    const gateways = http.find((d) => d.name === 'upstream' && d.args[0] === 'gateway')!.block!;
    expect(gateways.filter((d) => d.name === 'server').map((d) => d.args[0])).toEqual(readmeGateways);
    // It listens where the README's workers and users reach it.
    const listen = serverBlockOf(local).find((d) => d.name === 'listen')!.args[0];
    expect(listen).toBe('8080');
    expect(steps).toContain(`DEVICE_API_URL=http://127.0.0.1:${listen}`);
    expect(steps).toContain(`PUBLIC_URL=http://localhost:${listen}`);
  });

  it('proxies like deploy/nginx.conf (the same locations and headers), only its upstream and port differ', () => {
    const strip = (block: NginxDirective[]) => block.filter((d) => d.name !== 'listen');
    expect(strip(serverBlockOf(local))).toEqual(strip(serverBlockOf(parseNginx(read('deploy/nginx.conf')))));
    const maps = (conf: NginxDirective[]) =>
      conf.flatMap((d) => (d.name === 'http' ? d.block! : [d])).filter((d) => d.name === 'map');
    expect(maps(local)).toEqual(maps(parseNginx(read('deploy/nginx.conf'))));
  });
});

describe('services without HTTP', () => {
  it("turn off the image's /healthz check (the simulator and the seed); servers and workers keep it", () => {
    expect(services.simulator!.healthcheck).toEqual({ disable: true });
    expect(services.seed!.healthcheck).toEqual({ disable: true });
    for (const name of ['server', 'gateway', 'worker']) expect(services[name]!.healthcheck, name).toBeUndefined();
  });
});

type NginxDirective = { name: string; args: string[]; block?: NginxDirective[] };

/** Enough of nginx's syntax for these files: directives, quoted arguments, blocks, comments. */
function parseNginx(text: string): NginxDirective[] {
  const tokens = [...text.replace(/#[^\n]*/g, '').matchAll(/'([^']*)'|"([^"]*)"|([{};])|([^\s{};'"]+)/g)].map((m) => ({
    word: m[1] ?? m[2] ?? m[4],
    punct: m[3],
  }));
  let i = 0;
  const block = (nested: boolean): NginxDirective[] => {
    const out: NginxDirective[] = [];
    while (i < tokens.length) {
      if (tokens[i]!.punct === '}') {
        if (!nested) throw new Error('nginx: a } closes nothing');
        i++;
        return out;
      }
      const name = tokens[i++]!.word!;
      const args: string[] = [];
      while (i < tokens.length && tokens[i]!.word !== undefined) args.push(tokens[i++]!.word!);
      const end = tokens[i++]?.punct;
      if (end === '{') out.push({ name, args, block: block(true) });
      else if (end === ';') out.push({ name, args });
      else throw new Error(`nginx: '${name}' not ended by ; or {`);
    }
    if (nested) throw new Error('nginx: a { is never closed');
    return out;
  };
  return block(false);
}

function serverBlockOf(conf: NginxDirective[]): NginxDirective[] {
  const http = conf.find((d) => d.name === 'http')?.block ?? conf;
  return http.find((d) => d.name === 'server')!.block!;
}
