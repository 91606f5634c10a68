// The map page is loaded with a dynamic import after sign-in (see app/App.tsx): its public API is only
// the loaders, which import nothing of the page itself.
export { loadMapPage, preloadMapFx } from './preload';
