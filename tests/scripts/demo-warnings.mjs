// Reads the demo's overview every EVERY_S seconds for DURATION_S seconds after `npm start` and prints the
// warning and offline counts (issue 47's steady-state check; docs/simulator.md). Usage:
//   BASE=http://127.0.0.1:18431 EVERY_S=120 DURATION_S=1800 node tests/scripts/demo-warnings.mjs
const base = process.env.BASE ?? 'http://127.0.0.1:8080';
const every = Number(process.env.EVERY_S ?? 120) * 1000;
const duration = Number(process.env.DURATION_S ?? 1800) * 1000;
const started = Date.now();

async function login() {
  for (;;) {
    try {
      const res = await fetch(`${base}/auth/token/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'distributor@demo.test', password: 'Demo1234' }),
      });
      if (res.ok) return (await res.json()).auth_token;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

const token = await login();
const first = Date.now();
console.log(`logged in ${((first - started) / 1000).toFixed(0)} s after start`);
for (let k = 0; ; k++) {
  // A reading that hangs (it once did for minutes on a loaded host) is skipped after 30 s, not waited on.
  let o;
  try {
    const res = await fetch(`${base}/api/v1/overview`, {
      headers: { authorization: `Token ${token}` },
      signal: AbortSignal.timeout(30_000),
    });
    o = await res.json();
  } catch (err) {
    console.log(`${new Date().toISOString()} no reading: ${err.message}`);
    await new Promise((r) => setTimeout(r, every));
    continue;
  }
  const min = ((Date.now() - first) / 60_000).toFixed(1);
  console.log(
    `${new Date().toISOString()} +${min} min  warnings ${o.warning_devices}  offline ${o.offline_devices}  online ${o.online_devices}`,
  );
  if (Date.now() - first + every > duration) break;
  await new Promise((r) => setTimeout(r, every));
}
