// The map page is loaded with a dynamic import after sign-in (see app/App.tsx): its public API is the
// loaders, which import nothing of the page itself, and the page's shell (frame and clock, no map).
export { loadMapPage, preloadMapFx } from './preload';
export { MapShell } from './ui/map-shell';
