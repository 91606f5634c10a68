// knip (`npm run lint`): unused files, dependencies and exports fail the lint, and every package declares
// what it imports. Two runs:
// - `knip`: the tests count as users (a helper, a dependency or an export nothing uses, not even a test);
// - `knip --production`: the tests do not count, so an export that only tests use fails unless it is listed
//   in TEST_ONLY_EXPORTS below (an effect a test replaces with fork({ handlers }), a helper a test checks).
import type { KnipConfig } from 'knip';

const production = process.argv.includes('--production');

/**
 * Exports that only tests import, by file (relative to the repository). knip ignores issues by file, not by
 * name, so in the production run a listed file's exports are not checked; the default run still fails on
 * any of its exports nothing uses at all. Keep the names here so a reader sees why the file is listed.
 */
const TEST_ONLY_EXPORTS: Record<string, string[]> = {
  'client/src/entities/batch/index.ts': ['fetchBatchListFx'],
  'client/src/entities/brand/index.ts': ['fetchBrandsFx'],
  'client/src/entities/county/index.ts': ['fetchCountiesFx'],
  'client/src/entities/device/index.ts': ['fetchDeviceDetailsFx', 'fetchDevicePinsFx', 'fetchDevicesFx', 'normaliseDevices'],
  'client/src/entities/overview/index.ts': ['fetchCountyOverviewFx', 'fetchOverviewFx'],
  'client/src/entities/session/index.ts': ['clearTokenFx'],
  'client/src/entities/user/index.ts': ['fetchClientUsersFx', 'fetchPendingUsersFx'],
  'client/src/features/active-pin-filter/index.ts': ['pinTypeToggled'],
  'client/src/features/device-form/model.ts': ['addDeviceOpened', 'deviceDeleted', 'deviceSaved', 'editDeviceOpened'],
  'client/src/features/live-devices/index.ts': ['flushTimerFx'],
  'client/src/shared/config/index.ts': ['fetchClientConfigFx'],
  'client/src/shared/routing/index.ts': ['pushHistoryFx'],
  'client/src/widgets/deactivated-dialog/index.ts': ['$deactivatedDialogOpen'],
  'client/src/widgets/device-panel/index.ts': ['panelClosed'],
  'client/src/widgets/device-panel/lib/panel-lib.ts': ['menuBadge'],
  'client/src/widgets/map/index.ts': ['$viewRequest'],
  'client/src/widgets/map/lib/pins.ts': ['countsOf'],
  'client/src/widgets/map/offline/maplibre-internals.ts': ['MAPLIBRE_VERSION'],
  'client/src/widgets/selected-device/index.ts': ['$panelShown'],
  'client/src/widgets/user-management/index.ts': ['$userManagementOpen'],
  'server/src/alerts/index.ts': ['AlertsFeature'],
  'server/src/gateway/index.ts': ['gatewayServiceOf'],
  'server/src/openapi/answer-check.ts': ['recordAnswerMismatches'],
  'server/src/labels/index.ts': ['labelCell'],
  'server/src/places/gazetteer.ts': ['placeById'],
  // The season runner and its policies: production since the demo's crews drive routes (driveRoute) with
  // Service day's planner; the runner itself runs in the season benchmark and its tests.
  'workers/src/simulator/planner-policy.ts': ['seasonStock'],
  'workers/src/simulator/scenarios.ts': ['seasonScenarios'],
  'workers/src/simulator/season.ts': ['naivePolicy', 'nonePolicy', 'runSeason', 'seasonFleet', 'siteStaffPolicy'],
};

/**
 * Production entries and files end in `!` (knip's marker); tests, and the benchmarks and test helpers under
 * tests/, are files of the default run only.
 */
const workspace = (entry: string[], tests: string[], project: string[], testProject: string[] = []) => ({
  entry: [...entry.map((e) => `${e}!`), ...tests],
  project: [...project.map((p) => `${p}!`), ...testProject],
});

const config: KnipConfig = {
  // An export a file uses itself is not dead code; knip's question is whether anyone else needs it exported.
  ignoreExportsUsedInFile: true,
  // Programs of the host, not npm packages (Chromium's installer, poppler's pdftotext and pdftoppm, openssl for a test's
  // certificate, Redis, Compose).
  ignoreBinaries: ['apt-get', 'pdftotext', 'pdftoppm', 'openssl', 'redis-server', 'docker-compose'],
  workspaces: {
    '.': workspace(
      ['scripts/*.mjs'],
      ['tests/**/*.test.ts', 'tests/bench/*.ts', 'tests/perf/*.ts', 'tests/load/*.ts', 'tests/scripts/*.ts'],
      ['scripts/**/*.mjs', '*.{js,ts}'],
      ['tests/**/*.ts'],
    ),
    // The packages' own entries (package.json exports, the root's scripts, client/index.html) knip finds.
    // tsx: the Docker image runs the TypeScript sources with `node --import tsx` and installs production
    // dependencies only, so the server (not just the root's dev tools) depends on it.
    server: { ...workspace([], ['src/**/*.test.ts'], ['src/**/*.ts']), ignoreDependencies: ['tsx'] },
    // The simulator is started by `npm run simulate`, a script the production run does not read.
    workers: workspace(production ? ['src/simulator/simulate-cli.ts'] : [], ['src/**/*.test.ts'], ['src/**/*.ts']),
    client: workspace([], ['src/**/*.test.{ts,tsx}'], ['src/**/*.{ts,tsx}', '*.ts']),
    shared: workspace([], ['src/**/*.test.ts'], ['src/**/*.ts']),
  },
  ignoreIssues: production ? Object.fromEntries(Object.keys(TEST_ONLY_EXPORTS).map((file) => [file, ['exports', 'types']])) : {},
};

export default config;
