import { createEvent, sample } from 'effector';
import { countiesCleared, countiesRequested } from '../entities/county';
import { devicesCleared, devicesRequested } from '../entities/device';
import { overviewCleared, overviewRequested } from '../entities/overview';
import { $signedIn, sessionCheckRequested, sessionEnded, tokenReceived } from '../entities/session';
import { pinFilterReset } from '../features/active-pin-filter';
import { liveUpdatesStarted, liveUpdatesStopped } from '../features/live-devices';
import { deactivatedLoginRefused, signedIn } from '../features/sign-in';
import { clientConfigRequested } from '../shared/config';
import { routingStarted } from '../shared/routing';
import { deactivatedDialogOpened } from '../widgets/deactivated-dialog';
import { mapReset } from '../widgets/map';

/**
 * Starts the app and wires features to each other (features never import one another):
 * read the address bar and check the stored token; a login becomes a session; a signed-in session
 * loads the map's data once and opens the realtime connection; the end of a session forgets it all.
 */
export const appStarted = createEvent();

sample({ clock: appStarted, target: [routingStarted, sessionCheckRequested] });

sample({ clock: signedIn, target: tokenReceived });
sample({ clock: deactivatedLoginRefused, target: deactivatedDialogOpened });

sample({
  clock: $signedIn.updates,
  filter: Boolean,
  target: [devicesRequested, countiesRequested, overviewRequested, clientConfigRequested, liveUpdatesStarted],
});
sample({ clock: sessionEnded, target: [liveUpdatesStopped, devicesCleared, countiesCleared, overviewCleared, pinFilterReset, mapReset] });
