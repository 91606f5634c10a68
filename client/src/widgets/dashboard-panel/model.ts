import type { Subscription } from '@fleet/shared';
import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { $counties, $countyNames, countyRowsOf, createRollup, type RollupQuery } from '../../entities/county';
import { $brands, brandsRequested } from '../../entities/brand';
import { createDevicePageList, devicePinClicked } from '../../entities/device';
import { countyOverviewPatched, countyOverviewRequested } from '../../entities/overview';
import { $accessLevel, sessionEnded } from '../../entities/session';
import { overviewChangedReceived, socketConnected, subscribeFx, unsubscribeFx } from '../../shared/realtime';
import {
  batchNumbersOf,
  geometryBounds,
  pageFilterOf,
  partnerCompaniesOf,
  searchKey,
  seenPartners,
  siteRowsOf,
  typedOnly,
  type FilterView,
  type PartnerCompany,
} from './lib/dashboard-lib';
import { yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The main dashboard panel over the map (spec section 2): tabs OVERVIEW, DEVICE LIST, BATCH LIST and
 * SUBSCRIPTIONS, a tile opening a filtered device list, and the county / brand / market-partner
 * roll-ups. A filter list ('<filter> Devices') is read from the server a page at a time, filtered and
 * counted there (GET /api/v1/devicePage, issue 46: at 100,000 devices the browser holds the pages
 * scrolled to, not the fleet); its rows and count stay live (entities/device/page-list.ts). The
 * roll-ups of the DEVICE LIST tab (county, site, market-partner and batch cards) are counted by the server
 * too (GET /api/v1/deviceRollup), read when shown and again when the overview's counts are pushed; the
 * overview counts come from the `overview` topic. Choosing a county switches the dashboard to that county (section 4: overall versus
 * a county): its overview is read once and then pushed, and the map zooms to its outline.
 *
 * It opens no other widget itself: it says what it wants (deviceChosen, areaFocused) and the page that
 * shows it beside the device panel and the map connects those (pages/map/model.ts).
 */
export type DashboardTab = 'overview' | 'deviceList' | 'batchList' | 'subscriptions';
export type DeviceListTab = 'county' | 'brand' | 'partner';

export const dashboardReset = createEvent();
// Nothing of the last user's dashboard stays after sign-out (wired here, not in app/, so the dashboard
// stays out of the login page's bundle).
sample({ clock: sessionEnded, target: dashboardReset });
export const collapseToggled = createEvent();
export const tabSelected = createEvent<DashboardTab>();
export const filterViewOpened = createEvent<FilterView>();
export const filterViewClosed = createEvent();
export const searchChanged = createEvent<string>();
export const brandFilterChanged = createEvent<number | null>();
export const countyFilterChanged = createEvent<number | null>();
export const partnerFilterChanged = createEvent<string[]>();
export const deviceListTabSelected = createEvent<DeviceListTab>();
export const batchFilterChanged = createEvent<string | null>();
/** A county card clicked: selects it (the dashboard's county view); countyCleared goes back to overall. */
export const countyClicked = createEvent<number>();
export const countyCleared = createEvent();
/** A double click on the selected county card: its device groups. */
export const countyDrilledIn = createEvent<number>();
export const drillBackClicked = createEvent();
export const partnerSearchChanged = createEvent<string>();
export const partnerClicked = createEvent<string>();
/** A device card in a list: open its panel and highlight its pin. */
export const deviceCardClicked = createEvent<string>();
/** Out: a device was chosen in the dashboard; its management panel should open. */
export const deviceChosen = createEvent<string>();
/** Out: the map should show this area (west-south and east-north corners, [lng, lat]): a county's outline. */
export const areaFocused = createEvent<[[number, number], [number, number]]>();

export const $collapsed = createStore(false)
  .on(collapseToggled, (c) => !c)
  .reset(dashboardReset);
export const $tab = createStore<DashboardTab>('overview').reset(dashboardReset);
export const $filterView = createStore<FilterView | null>(null)
  .on(filterViewOpened, (_, view) => view)
  .reset(filterViewClosed, tabSelected, dashboardReset);
export const $searchText = createStore('')
  .on(searchChanged, (_, text) => text)
  .reset(filterViewOpened, dashboardReset);
export const $brandFilter = createStore<number | null>(null)
  .on(brandFilterChanged, (_, id) => id)
  .reset(filterViewOpened, dashboardReset);
export const $countyFilter = createStore<number | null>(null)
  .on(countyFilterChanged, (_, id) => id)
  .reset(dashboardReset);
export const $partnerFilter = createStore<string[]>([])
  .on(partnerFilterChanged, (_, keys) => keys)
  .reset(filterViewOpened, dashboardReset);
export const $deviceListTab = createStore<DeviceListTab>('county')
  .on(deviceListTabSelected, (_, tab) => tab)
  .reset(dashboardReset);
export const $batchFilter = createStore<string | null>(null)
  .on(batchFilterChanged, (_, batch) => batch)
  .reset(dashboardReset);
export const $selectedCounty = createStore<number | null>(null)
  .on(countyClicked, (_, id) => id)
  .reset(countyCleared, dashboardReset);
export const $drillCounty = createStore<number | null>(null)
  .on(countyDrilledIn, (_, id) => id)
  .reset(drillBackClicked, countyCleared, dashboardReset);
export const $partnerSearch = createStore('')
  .on(partnerSearchChanged, (_, text) => text)
  .reset(dashboardReset);
export const $selectedPartner = createStore<string | null>(null)
  .on(partnerClicked, (current, key) => (current === key ? null : key))
  .reset(dashboardReset);

export { $countyNames };

/** The filter list's rows: pages of the server's answer for the view and the filters chosen. */
export const filterPages = createDevicePageList();
export const $filteredDevices = filterPages.$items;
export const $filterTotal = filterPages.$total;
export const $filterStatus = filterPages.$status;
const $pageFilter = combine(
  {
    view: $filterView,
    search: $searchText,
    brand: $brandFilter,
    county: $countyFilter,
    partners: $partnerFilter,
  },
  ({ view, search, brand, county, partners }) =>
    view ? pageFilterOf({ view, search: searchKey(search), brand, county, partners }) : null,
);
// Typing is read once it settles; a view opened or a dropdown chosen is read at once.
sample({
  clock: $pageFilter.updates,
  source: filterPages.$filter,
  filter: (shown, next) => next !== null && typedOnly(shown, next),
  fn: (_, next) => next!,
  target: filterPages.filterTyped,
});
sample({
  clock: $pageFilter.updates,
  source: filterPages.$filter,
  filter: (shown, next) => next !== null && !typedOnly(shown, next),
  fn: (_, next) => next!,
  target: filterPages.opened,
});
sample({ clock: $pageFilter.updates, filter: (next) => next === null, target: filterPages.closed });

/** The Brand dropdown: the caller's brands (GET /api/v1/brand), by name. */
export const $brandOptions = $brands.map((brands) =>
  brands.map((b) => ({ id: b.id, name: b.name })).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
);
/**
 * The Market Partner dropdown: the companies on the rows read since the list opened (and those chosen).
 * No call lists the companies of a fleet for every role; at 100,000 devices the whole list is not read.
 */
export const $partnerCompanies = createStore<PartnerCompany[]>([], { serialize: 'ignore' })
  .on(filterPages.$items, (seen, rows) => seenPartners(seen, rows))
  .reset(filterViewOpened, dashboardReset);
/** The County dropdown: every county by name (the outlines' names). */
export const $countyOptions = $countyNames.map((names) =>
  [...names].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
);

/**
 * The DEVICE LIST roll-ups, each read from GET /api/v1/deviceRollup while its view shows (a null query reads
 * nothing), and read again when the overview's counts are pushed (a device's status changed).
 */
const $deviceListShown = combine(
  $tab,
  $filterView,
  $collapsed,
  (tab, view, collapsed) => tab === 'deviceList' && view === null && !collapsed,
);
const $countyViewShown = combine($deviceListShown, $deviceListTab, (shown, sub) => shown && sub === 'county');
const withBatch = (batch: string | null) => (batch !== null ? { batch } : {});
const countyRollup = createRollup(
  combine($countyViewShown, $drillCounty, $batchFilter, (shown, drill, batch): RollupQuery | null =>
    shown && drill === null ? { by: 'county', ...withBatch(batch) } : null,
  ),
);
const siteRollup = createRollup(
  combine($countyViewShown, $drillCounty, $batchFilter, (shown, drill, batch): RollupQuery | null =>
    shown && drill !== null ? { by: 'site', county: drill, ...withBatch(batch) } : null,
  ),
);
const batchRollup = createRollup($countyViewShown.map((shown): RollupQuery | null => (shown ? { by: 'batch' } : null)));
const partnerRollup = createRollup(
  combine($deviceListShown, $deviceListTab, (shown, sub): RollupQuery | null =>
    shown && sub === 'partner' ? { by: 'partner' } : null,
  ),
);
const partnerCountyRollup = createRollup(
  combine($deviceListShown, $deviceListTab, $selectedPartner, (shown, sub, partner): RollupQuery | null =>
    shown && sub === 'partner' && partner !== null ? { by: 'county', partner } : null,
  ),
);
/** The Batch filter's options: the batch numbers feeding any device in scope. */
export const $batchOptions = batchRollup.$rows.map(batchNumbersOf);
export const $countyRows = combine(countyRollup.$rows, $countyNames, countyRowsOf);
export const $countyRowsStatus = countyRollup.$status;
export const $siteRows = siteRollup.$rows.map(siteRowsOf);
export const $siteRowsStatus = siteRollup.$status;
/** The Market Partner tab's companies, counted by the server. */
const $fleetPartners = partnerRollup.$rows.map(partnerCompaniesOf);
export const $partnerRowsStatus = partnerRollup.$status;
export const $visiblePartners = combine($fleetPartners, $partnerSearch, (companies, search) => {
  const key = searchKey(search);
  return key ? companies.filter((c) => searchKey(c.company).includes(key)) : companies;
});
/** The counties of the selected market-partner company (its devices only). */
export const $partnerCountyRows = combine(partnerCountyRollup.$rows, $countyNames, countyRowsOf);
export const $partnerCountyRowsStatus = partnerCountyRollup.$status;

/** Spec section 6: market partners get no SUBSCRIPTIONS tab and no Market Partner sub-tab; only distributors add devices. */
export const $isMarketPartner = $accessLevel.map((level) => level === 'market-partner');
export const $canAddDevice = $accessLevel.map((level) => level === 'distributor');

// A tab a role does not have is never shown, even if it was the last one chosen.
sample({
  clock: tabSelected,
  source: $isMarketPartner,
  filter: (mp, tab) => !(mp && tab === 'subscriptions'),
  fn: (_, tab) => tab,
  target: $tab,
});
sample({
  clock: $isMarketPartner,
  source: $tab,
  filter: (tab, mp) => mp && tab === 'subscriptions',
  fn: () => 'overview' as const,
  target: $tab,
});
sample({
  clock: $isMarketPartner,
  source: $deviceListTab,
  filter: (tab, mp) => mp && tab === 'partner',
  fn: () => 'county' as const,
  target: $deviceListTab,
});

// A filter list opened while a county is the dashboard's view starts on that county.
sample({ clock: filterViewOpened, source: $selectedCounty, target: $countyFilter });

sample({
  clock: deviceCardClicked,
  target: [devicePinClicked, deviceChosen],
});

// The county view: its overview once, the map on its outline.
sample({ clock: $selectedCounty.updates, filter: (id): id is number => id !== null, target: countyOverviewRequested });
sample({
  clock: $selectedCounty.updates,
  source: $counties,
  filter: (collection, id) => id !== null && collection.features.some((f) => f.id === id),
  fn: (collection, id) => geometryBounds(collection.features.find((f) => f.id === id)!.geometry)!,
  target: areaFocused,
});

// Pushes for the county on view (the overall ones go to the overall overview).
sample({
  clock: overviewChangedReceived,
  source: $selectedCounty,
  filter: (county, payload) => county !== null && (payload as { location?: number | null }).location === county,
  fn: (_, payload) => payload as Record<string, number | null> & { location: number },
  target: countyOverviewPatched,
});

/** Moves the county overview subscription from one county to another (null: none). */
export const moveCountySubscriptionFx = createEffect(async ({ from, to }: { from: number | null; to: number | null }) => {
  const sub = (location: number) => ({ topic: 'overview', location }) as Subscription;
  if (from !== null && from !== to) await unsubscribeFx(sub(from));
  if (to !== null && from !== to) await subscribeFx(sub(to));
});
const $subscribedCounty = createStore<number | null>(null, { serialize: 'ignore' })
  .on(moveCountySubscriptionFx.done, (_, { params }) => params.to)
  .reset(dashboardReset);
sample({
  clock: $selectedCounty.updates,
  source: $subscribedCounty,
  fn: (from, to) => ({ from, to }),
  target: moveCountySubscriptionFx,
});
// After a reconnect the server has forgotten the subscription and the counts may have moved.
sample({
  clock: socketConnected,
  source: $selectedCounty,
  filter: (id, { reconnect }) => reconnect && id !== null,
  fn: (to) => ({ from: null, to }),
  target: moveCountySubscriptionFx,
});
sample({
  clock: socketConnected,
  source: $selectedCounty,
  filter: (id, { reconnect }) => reconnect && id !== null,
  fn: (id) => id as number,
  target: countyOverviewRequested,
});
// The Brand dropdown's names.
sample({ clock: filterViewOpened, fn: () => undefined, target: brandsRequested });
