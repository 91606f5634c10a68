import { createStore, sample, createEvent } from 'effector';
import { createApiFx, http, HttpError } from '../api';

/** Runtime configuration the server hands the browser (never baked into the build). */
export type ClientConfig = { googleMapsApiKey: string | null };

/**
 * GET /api/v1/clientConfig. A server without the route (404) means "no Google key": the offline map.
 * Any other failure also falls back to the offline map, which needs nothing from the network.
 */
export const fetchClientConfigFx = createApiFx<void, ClientConfig>(async () => {
  try {
    const answer = await http<Partial<ClientConfig>>('/api/v1/clientConfig');
    const key = typeof answer?.googleMapsApiKey === 'string' && answer.googleMapsApiKey.trim() ? answer.googleMapsApiKey.trim() : null;
    return { googleMapsApiKey: key };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) throw error;
    return { googleMapsApiKey: null };
  }
});

export const clientConfigRequested = createEvent();

/** null until the answer arrives: the map waits for it before choosing a provider. */
export const $clientConfig = createStore<ClientConfig | null>(null, { serialize: 'ignore' });

$clientConfig.on(fetchClientConfigFx.doneData, (_, config) => config);
sample({ clock: clientConfigRequested, source: $clientConfig, filter: (config) => config === null, target: fetchClientConfigFx });
