/** The offline basemap's GeoJSON files, made at build time by client/vite-basemap.ts. */
declare module 'virtual:fleet-basemap' {
  export const waterUrl: string;
  export const bordersUrl: string;
}
