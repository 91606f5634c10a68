/** The offline basemap's GeoJSON file (water, state and county borders), made at build time by client/vite-basemap.ts. */
declare module 'virtual:fleet-basemap' {
  export const basemapUrl: string;
}
