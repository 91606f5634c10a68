import { MAP_DEFAULTS } from '@fleet/shared';
import { GoogleMap, useJsApiLoader } from '@react-google-maps/api';
import { useUnit } from 'effector-react';
import { useEffect, useState, type ReactNode } from 'react';
import { $counties } from '../../../entities/county';
import { clearPadding, coveredBoxes } from '../lib/clear-view';
import { readPalette } from '../lib/palette';
import { $viewRequest, MAX_ZOOM, mapMoved, siteViewSettled } from '../model';
import { GooglePinsLayer } from './google-pins-layer';
import styles from './google-map.module.css';

/** Points of interest and transit icons hidden (spec section 2). */
const HIDDEN_FEATURES: google.maps.MapTypeStyle[] = [
  { featureType: 'poi', stylers: [{ visibility: 'off' }] },
  { featureType: 'transit', stylers: [{ visibility: 'off' }] },
];

const OPTIONS: google.maps.MapOptions = {
  minZoom: MAP_DEFAULTS.minZoom,
  maxZoom: MAX_ZOOM,
  disableDefaultUI: true,
  disableDoubleClickZoom: true,
  clickableIcons: false,
  keyboardShortcuts: true,
  styles: HIDDEN_FEATURES,
};
const CENTER = { lat: MAP_DEFAULTS.lat, lng: MAP_DEFAULTS.lng };

export type GoogleFleetMapProps = {
  apiKey: string;
  /** Google's script could not load (no network, a refused key): the caller shows the offline map. */
  onUnavailable: () => void;
};

/** The Google provider, used when the server configures a key at run time. */
export default function GoogleFleetMap({ apiKey, onUnavailable }: GoogleFleetMapProps) {
  const { isLoaded, loadError } = useJsApiLoader({ id: 'google-maps-script', googleMapsApiKey: apiKey });
  const [map, setMap] = useState<google.maps.Map | null>(null);

  useEffect(() => {
    if (loadError) onUnavailable();
  }, [loadError, onUnavailable]);

  useEffect(() => {
    // A key Google refuses reports through this global hook, not through the loader.
    const previous = (window as { gm_authFailure?: () => void }).gm_authFailure;
    (window as { gm_authFailure?: () => void }).gm_authFailure = onUnavailable;
    return () => {
      (window as { gm_authFailure?: () => void }).gm_authFailure = previous;
    };
  }, [onUnavailable]);

  if (!isLoaded) return <div className={styles.map} data-map-provider="google" aria-busy="true" />;
  return (
    <GoogleMap
      mapContainerClassName={styles.map}
      center={CENTER}
      zoom={MAP_DEFAULTS.zoom}
      options={OPTIONS}
      onLoad={setMap}
      onUnmount={() => setMap(null)}
    >
      {map ? <GoogleLayers map={map} /> : null}
    </GoogleMap>
  );
}

function GoogleLayers({ map }: { map: google.maps.Map }): ReactNode {
  return (
    <>
      <GoogleCounties map={map} />
      <GoogleViewSync map={map} />
      <GooglePinsLayer map={map} />
    </>
  );
}

/** County outlines through the map's Data layer. */
function GoogleCounties({ map }: { map: google.maps.Map }) {
  const counties = useUnit($counties);
  useEffect(() => {
    const palette = readPalette();
    map.data.setStyle({
      fillColor: palette.countyLine,
      fillOpacity: 0.05,
      strokeColor: palette.countyLine,
      strokeWeight: 1.2,
      clickable: false,
    });
    const added = map.data.addGeoJson(counties);
    return () => {
      for (const feature of added) map.data.remove(feature);
    };
  }, [map, counties]);
  return null;
}

function GoogleViewSync({ map }: { map: google.maps.Map }) {
  const [request, moved, settled] = useUnit([$viewRequest, mapMoved, siteViewSettled]);
  useEffect(() => {
    const listener = map.addListener('idle', () => {
      const center = map.getCenter();
      if (center) moved({ zoom: map.getZoom() ?? MAP_DEFAULTS.zoom, center: { lat: center.lat(), lng: center.lng() } });
      // The sites of the view, for the labels' names (model.ts); a view across the antimeridian is not read.
      const bounds = map.getBounds();
      if (!bounds) return;
      const [sw, ne] = [bounds.getSouthWest(), bounds.getNorthEast()];
      if (sw.lng() <= ne.lng()) settled({ west: sw.lng(), south: sw.lat(), east: ne.lng(), north: ne.lat() });
    });
    return () => listener.remove();
  }, [map, moved, settled]);
  useEffect(() => {
    if (!request) return;
    if (request.bounds) {
      const [[west, south], [east, north]] = request.bounds;
      // Fitted into the part of the map no panel covers (lib/clear-view); its shape in Web Mercator.
      const container = map.getDiv();
      const mercatorY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
      const content = { width: ((east - west) * Math.PI) / 180, height: mercatorY(north) - mercatorY(south) };
      map.fitBounds(
        { west, south, east, north },
        clearPadding(container.clientWidth, container.clientHeight, coveredBoxes(container), content),
      );
      return;
    }
    if (request.center) map.panTo(request.center);
    // Google's getZoom() already answers the zoom it is heading to, so steps add up.
    const zoom = request.zoom ?? (map.getZoom() ?? MAP_DEFAULTS.zoom) + (request.zoomBy ?? 0);
    map.setZoom(Math.min(MAX_ZOOM, Math.max(MAP_DEFAULTS.minZoom, zoom)));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, request?.seq]);
  return null;
}
