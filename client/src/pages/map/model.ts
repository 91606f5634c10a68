import { createStore, sample } from 'effector';
import { areaFocused, deviceChosen } from '../../widgets/dashboard-panel';
import { $panelSerial, panelOpened } from '../../widgets/device-panel';
import { pinNamed, pinPlacedOnMap, placeOnMapRequested, placingOnMapEnded } from '../../features/device-form';
import {
  boundsRequested,
  pinPlacingStarted,
  placingFinished,
  placingPinLabelled,
  placingPinMoved,
  zoomInClicked,
  zoomOutClicked,
} from '../../widgets/map';
import { userManagementRequested, zoomInRequested, zoomOutRequested } from '../../widgets/profile-panel';
import { deviceManagerRequested, panelShownChanged } from '../../widgets/selected-device';
import { bellClicked } from '../../features/alerts-bell';
import { incidentsOpened } from '../../widgets/incidents';

/**
 * The map screen composes its widgets: none of them imports another, each says what it wants and this
 * page connects it to the widget that does it. Loaded with the page (ui/map-page imports it).
 */
// A device chosen in the dashboard's lists opens its management panel.
sample({ clock: deviceChosen, target: panelOpened });
// The dashboard's county view: the map shows the county's outline.
sample({ clock: areaFocused, target: boundsRequested });
// The device form's 'Place on map': the map takes the pin, the form its places and the end (issue 42).
sample({ clock: placeOnMapRequested, target: pinPlacingStarted });
sample({ clock: placingPinMoved, target: pinPlacedOnMap });
sample({ clock: pinNamed, target: placingPinLabelled });
sample({ clock: placingFinished, target: placingOnMapEnded });
// The selected pin's card opens the device panel, and hides while the panel is open (both start closed).
sample({ clock: deviceManagerRequested, target: panelOpened });
sample({ clock: $panelSerial, fn: (serial) => serial !== null, target: panelShownChanged });
// The bell opens the Incidents view (issue 43).
sample({ clock: bellClicked, target: incidentsOpened });
// The profile panel's zoom buttons zoom the map.
sample({ clock: zoomInRequested, target: zoomInClicked });
sample({ clock: zoomOutRequested, target: zoomOutClicked });
/**
 * Its profile image opens User Management, whose code is loaded on the first click (ui/map-page shows
 * the part from then on; the part connects the clicks: user-management-wiring).
 */
export const $userManagementAsks = createStore(0).on(userManagementRequested, (asks) => asks + 1);
