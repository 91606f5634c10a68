// The map page is loaded with a dynamic import after sign-in: its public API is the preload, which imports
// nothing of the page itself, and the screen's frame (frame and clock in the first bundle, the page's
// parts lazily: ui/map-shell).
export { preloadMapFx } from './preload';
export { MapScreen } from './ui/map-shell';
