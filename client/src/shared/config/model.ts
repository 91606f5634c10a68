import { authApi } from '@fleet/shared';
import { createStore, sample, createEvent } from 'effector';
import { call, createApiFx, HttpError } from '../api';

/** Runtime configuration the server hands the browser (never baked into the build). */
/** mapStyleUrl: a MapLibre style for the offline map (MAP_STYLE_URL), null for its built-in basemap. */
export type ClientConfig = { googleMapsApiKey: string | null; mapStyleUrl: string | null };

/**
 * GET /api/v1/clientConfig. A server without the route (404) means "no Google key": the offline map.
 * Any other failure also falls back to the offline map, which needs nothing from the network.
 */
export const fetchClientConfigFx = createApiFx<void, ClientConfig>(async () => {
  try {
    const answer = await call(authApi.clientConfig);
    const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);
    return { googleMapsApiKey: text(answer?.googleMapsApiKey), mapStyleUrl: text(answer?.mapStyleUrl) };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) throw error;
    return { googleMapsApiKey: null, mapStyleUrl: null };
  }
});

export const clientConfigRequested = createEvent();

/** null until the answer arrives: the map waits for it before choosing a provider. */
export const $clientConfig = createStore<ClientConfig | null>(null, { serialize: 'ignore' });

$clientConfig.on(fetchClientConfigFx.doneData, (_, config) => config);
sample({ clock: clientConfigRequested, source: $clientConfig, filter: (config) => config === null, target: fetchClientConfigFx });
