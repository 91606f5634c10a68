/**
 * `npm run simulate`: a simulated fleet checking in to a running portal. See --help.
 */
import type { PumpType } from '@fleet/shared';
import { seededRandom } from './device-model.ts';
import { startSimulator, type SimulatedDevice } from './simulator.ts';

const HELP = `Usage: npm run simulate -- [options]

Runs a simulated fleet of dispensers against a running portal: each device wakes up on its own
schedule, checks in to POST /device/v1/checkin with what it dispensed and measured, applies the
configuration it is answered and acknowledges pending changes.

  --devices N       devices to simulate (default 100). When the portal has fewer placed devices, new
                    serials SIM000001... are provisioned and placed on generated sites near New Orleans
                    ('{n} Simulated Way, New Orleans, LA', 10 devices per site)
  --speed X         simulated seconds per real second (default 60: an hour of the fleet per minute)
  --url URL         the portal (default http://localhost:8080)
  --email E         a distributor account (default distributor@demo.test)
  --password P      its password (default Demo1234)
  --duration S      stop after S seconds (default: run until Ctrl-C)
  --concurrency N   check-ins on the wire at once (default 64)
  --sim-start ISO   where the simulated clock starts (default now), e.g. 2026-07-04T14:00:00Z
  --batch B         left-pump batch for new placements (default SPF-2601)
  --batch2 B        right-pump (Sanitizer) batch for new placements (default SAN-2601)
  --help            this text

NOTE: the simulator REPLACES THE SECRETS of the devices it simulates (POST /api/v1/deviceSecret/{serial}):
real hardware using those serials stops authenticating until it is given its new secret. Use it on
development and test portals only.

Every 10 s it prints check-ins/s, data points/s (a dispense, a battery, level or data-usage reading and
an SMS count one each), p50/p99 check-in latency and errors.`;

type Args = Record<string, string | true>;
function parseArgs(argv: string[]): Args {
  const out: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new Error(`Unexpected argument ${a} (see --help)`);
    const eq = a.indexOf('=');
    if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) out[a.slice(2)] = argv[++i]!;
    else out[a.slice(2)] = true;
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const known = ['devices', 'speed', 'url', 'email', 'password', 'duration', 'concurrency', 'sim-start', 'batch', 'batch2'];
for (const k of Object.keys(args)) if (!known.includes(k)) fail(`Unknown option --${k} (see --help)`);
const str = (k: string, fallback: string) => (typeof args[k] === 'string' ? (args[k] as string) : fallback);
const num = (k: string, fallback: number) => {
  const v = args[k];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) fail(`--${k} needs a positive number`);
  return n;
};
const wanted = Math.floor(num('devices', 100));
const speed = num('speed', 60);
const baseUrl = str('url', 'http://localhost:8080').replace(/\/$/, '');
const email = str('email', 'distributor@demo.test');
const password = str('password', 'Demo1234');
const duration = args.duration === undefined ? null : num('duration', 0);
const concurrency = Math.floor(num('concurrency', 64));
const simStart = args['sim-start'] === undefined ? undefined : Date.parse(str('sim-start', ''));
if (simStart !== undefined && Number.isNaN(simStart)) fail('--sim-start needs an ISO date and time');
const batch = str('batch', 'SPF-2601');
const batch2 = str('batch2', 'SAN-2601');

function fail(msg: string): never {
  console.error(msg);
  process.exit(1);
}

let token = '';
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new Error(
      `${method} ${baseUrl}${path}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message} (is the portal running?)`,
      { cause: err },
    );
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Runs `fn` over `items`, `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (item: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

type Listed = { serial: string; left_pump_type: string; right_pump_type: string };
const asPump = (v: string, fallback: PumpType): PumpType =>
  v === 'Sunscreen' || v === 'Sanitizer' || v === 'Unspecified' ? v : fallback;
const SIM = /^SIM(\d+)$/;

/** Provisions and places SIM serials until the portal has `wanted` placed devices. */
async function ensureDevices(placed: Listed[]): Promise<void> {
  const need = wanted - placed.length;
  if (need <= 0) return;
  const available = await api<{ serial: string }[]>('GET', '/api/v1/avaliableDevice');
  const simIndex = (s: string) => Number(SIM.exec(s)?.[1] ?? 0);
  const reuse = available
    .map((a) => a.serial)
    .filter((s) => SIM.test(s))
    .slice(0, need);
  let maxIndex = Math.max(0, ...placed.map((p) => simIndex(p.serial)), ...available.map((a) => simIndex(a.serial)));
  const fresh: string[] = [];
  while (reuse.length + fresh.length < need) fresh.push(`SIM${String(++maxIndex).padStart(6, '0')}`);
  if (fresh.length) {
    for (let i = 0; i < fresh.length; i += 10_000)
      await api('POST', '/api/v1/provisionDevices', { serials: fresh.slice(i, i + 10_000) });
    console.log(`provisioned ${fresh.length} new serials (${fresh[0]} .. ${fresh.at(-1)})`);
  }
  const brands = await api<{ id: number; name: string }[]>('GET', '/api/v1/brand');
  if (!brands.length) fail('The portal has no brand to place devices under: add one first.');
  const brandId = brands[0]!.id;
  const serials = [...reuse, ...fresh];
  let done = 0;
  const t0 = Date.now();
  await pool(serials, 4, async (serial) => {
    const k = simIndex(serial);
    const site = Math.ceil(k / 10);
    const r = seededRandom(site * 7919);
    const lat = 30.0 + (r() * 2 - 1) * 0.3;
    const lng = -90.26 + (r() * 2 - 1) * 0.3;
    const d = seededRandom(k * 104_729);
    const dual = k % 3 === 0;
    await api('POST', '/api/v1/addDevice', {
      serialNumber: serial,
      deviceName: `Simulated ${site}-${((k - 1) % 10) + 1}`,
      brandId,
      deviceNumber: ((k - 1) % 10) + 1,
      batchNumber: batch,
      ...(dual ? { batch2Number: batch2 } : {}),
      address: `${site} Simulated Way, New Orleans, LA`,
      // Within ~20 m of the site's point, so the ten devices of a site share it.
      location: {
        lat: Number((lat + (d() * 2 - 1) * 0.0002).toFixed(6)),
        lng: Number((lng + (d() * 2 - 1) * 0.0002).toFixed(6)),
      },
      leftPumpType: 'Sunscreen',
      rightPumpType: dual ? 'Sanitizer' : 'Unspecified',
    });
    if (++done % 100 === 0 || done === serials.length)
      console.log(`placed ${done}/${serials.length} devices (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  });
}

async function main() {
  const login = await api<{ auth_token: string }>('POST', '/auth/token/login/', { email, password });
  token = login.auth_token;
  let placed = await api<Listed[]>('GET', '/api/v1/device');
  console.log(`${baseUrl}: ${placed.length} placed devices`);
  if (placed.length < wanted) {
    await ensureDevices(placed);
    placed = await api<Listed[]>('GET', '/api/v1/device');
  }
  const chosen = placed.slice(0, wanted);
  console.log(`rotating the secrets of ${chosen.length} devices (their previous secrets stop working)...`);
  const fleet: SimulatedDevice[] = new Array(chosen.length);
  await pool(chosen, 8, async (d, i) => {
    const { secret } = await api<{ serial: string; secret: string }>(
      'POST',
      `/api/v1/deviceSecret/${encodeURIComponent(d.serial)}`,
    );
    fleet[i] = {
      serial: d.serial,
      secret,
      leftPumpType: asPump(d.left_pump_type, 'Sunscreen'),
      rightPumpType: asPump(d.right_pump_type, 'Unspecified'),
    };
  });

  console.log(
    `simulating ${fleet.length} devices at ${speed}x speed against ${baseUrl}${duration ? ` for ${duration} s` : ' (Ctrl-C to stop)'}`,
  );
  const sim = startSimulator({
    baseUrl,
    devices: fleet,
    speed,
    maxInFlight: concurrency,
    log: (m) => console.log(m),
    ...(simStart !== undefined ? { simStart } : {}),
  });
  const started = Date.now();
  let last = { at: started, checkins: 0, stored: 0, errors: 0 };
  const line = () => {
    const s = sim.stats();
    const now = Date.now();
    const secs = Math.max(0.001, (now - last.at) / 1000);
    const errors = s.failures + s.rejected + s.unauthorized;
    console.log(
      `${String(Math.round((now - started) / 1000)).padStart(5)} s  check-ins/s ${((s.checkins - last.checkins) / secs).toFixed(1).padStart(7)}  data points/s ${((s.stored - last.stored) / secs).toFixed(0).padStart(7)}` +
        `  p50 ${s.latency.p50.toFixed(1).padStart(6)} ms  p99 ${s.latency.p99.toFixed(1).padStart(6)} ms  errors ${errors - last.errors}` +
        `  (in flight ${s.inFlight}, waiting ${s.queued}, off network ${s.offline}, flat battery ${s.dead}, stopped ${s.stopped})`,
    );
    last = { at: now, checkins: s.checkins, stored: s.stored, errors };
    return s;
  };
  const ticker = setInterval(line, 10_000);
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(ticker);
    console.log(`${why}: stopping...`);
    await sim.stop();
    const s = line();
    console.log(
      `done: ${s.checkins} check-ins, ${s.stored} data points stored (${s.duplicates} duplicates), ${s.acknowledged} pending changes acknowledged, ${s.failures} retried failures, ${s.rejected} refused uploads, ${s.stopped} devices stopped on 401`,
    );
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  if (duration) setTimeout(() => void stop(`${duration} s elapsed`), duration * 1000);
}

main().catch((err) => fail((err as Error).message));
