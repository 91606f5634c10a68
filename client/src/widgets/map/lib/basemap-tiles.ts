/**
 * The built-in basemap archive's shape, shared by the build that writes it (client/vite-basemap.ts) and the
 * layer that reads it (offline/basemap-layer.tsx); a module of its own so the page does not load the
 * build's TopoJSON code with it.
 */
/** Tiles from zoom 0 to this (a unit of a zoom-6 tile's 4096 is about 150 m, finer than the 1:50m and 1:10m data); MapLibre magnifies them above. */
export const BASEMAP_MAX_ZOOM = 6;
/** The vector layer in each tile that the basemap's map layers read. */
export const BASEMAP_SOURCE_LAYER = 'basemap';
