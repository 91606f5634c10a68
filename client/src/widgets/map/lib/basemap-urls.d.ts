/** The offline basemap's PMTiles archive (water, state and county borders as vector tiles), made at build time by client/vite-basemap.ts. */
declare module 'virtual:fleet-basemap' {
  export const basemapUrl: string;
}
