export { $clientConfig, clientConfigRequested, fetchClientConfigFx, type ClientConfig } from './model';
