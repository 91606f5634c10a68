export { $clientConfig, clientConfigRequested, fetchClientConfigFx } from './model';
