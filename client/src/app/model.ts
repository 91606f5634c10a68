import { createEvent, sample } from 'effector';
import { countiesCleared, countiesRequested } from '../entities/county';
import { devicesCleared, pinsRequested } from '../entities/device';
import { overviewCleared, overviewRequested } from '../entities/overview';
import {
  $signedIn,
  readTokenFx,
  saveTokenFx,
  sessionCheckRequested,
  sessionEnded,
  tokenReceived,
  type SessionEndReason,
} from '../entities/session';
import { preloadMapFx } from '../pages/map';
import { pinFilterReset } from '../features/active-pin-filter';
import { liveUpdatesStarted, liveUpdatesStopped } from '../features/live-devices';
import { deactivatedLoginRefused, signedIn } from '../features/sign-in';
import { clientConfigRequested } from '../shared/config';
import { routingStarted } from '../shared/routing';
import { sessionEndedReceived } from '../shared/realtime';
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

/**
 * The session's data is asked for as soon as there is a token to check (one stored, or one a login just
 * answered), beside the session check (GET /api/v1/user) rather than after it: the dashboard's figures, the
 * counties and the pins arrive a round trip sooner. The server checks the token on each of these calls as
 * on every call; a token it refuses ends the session at the first 401 or 403 that answers, and the others,
 * answering a session already ended, change nothing (entities/session). The realtime connection still
 * opens once the session is confirmed.
 */
/** A token was found stored at start (not a login): the session check goes out for it. */
const tokenFoundStored = sample({ clock: readTokenFx.doneData, filter: (token) => token !== null, fn: () => undefined });
sample({
  clock: [tokenFoundStored, saveTokenFx.done],
  fn: () => undefined,
  // The map draws from the compact pin feed (about 60 bytes a device); no view reads the full device list
  // (megabytes at 10,000 devices): the lists page it from the server (issue 46).
  target: [countiesRequested, overviewRequested, clientConfigRequested, pinsRequested],
});
sample({ clock: $signedIn.updates, filter: Boolean, fn: () => undefined, target: liveUpdatesStarted });
// The map page's code (and MapLibre behind it) downloads while the session is checked or the login
// answers, not after: with a stored token the map is the likely next screen.
sample({ clock: tokenFoundStored, target: preloadMapFx });
sample({ clock: tokenReceived, fn: () => undefined, target: preloadMapFx });
sample({
  clock: sessionEnded,
  target: [liveUpdatesStopped, devicesCleared, countiesCleared, overviewCleared, pinFilterReset, mapReset],
});
// The push server ended the session (an account deactivated for an overdue invoice closes its sockets at
// once): the same end as a 403/401 from a call, so a deactivated user on the map gets the Account
// Deactivated dialog without waiting for the next REST call.
sample({
  clock: sessionEndedReceived,
  source: $signedIn,
  filter: (signedIn) => signedIn,
  fn: (_, { reason }): SessionEndReason =>
    reason === 'deactivated' ? 'deactivated' : reason === 'logout' ? 'logout' : 'unauthorized',
  target: sessionEnded,
});
