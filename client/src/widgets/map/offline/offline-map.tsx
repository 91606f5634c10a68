import 'maplibre-gl/dist/maplibre-gl.css';
import { MAP_DEFAULTS } from '@fleet/shared';
import { Map as MaplibreMap, type StyleSpecification } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'react';
import { MAX_ZOOM } from '../model';
import { isSoftwareWebGL, MOVING_PIXEL_RATIO } from '../lib/render-quality';
import { CountyLayer } from './county-layer';
import { LabelsLayer } from './labels-layer';
import { OfflineMapContext, toGlZoom } from './map-context';
import { PinsLayer } from './pins-layer';
import { ViewSync } from './view-sync';
import styles from './offline-map.module.css';

/**
 * The offline provider: MapLibre with no tiles, no glyphs and no sprites, so it needs no key and no
 * network. A plain land background, the county outlines from the API, the pins and their clusters.
 * Default controls, double-click zoom and rotation are off (spec section 2); the keyboard still pans
 * (arrows) and zooms (+/-) once the map has focus.
 */
export default function OfflineMap() {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MaplibreMap | null>(null);

  useEffect(() => {
    if (!container.current) return;
    // No background layer: the land colour is the container's CSS background, so the GPU (often a
    // software rasteriser in headless and VM browsers) never fills the whole screen an extra time per frame.
    const style: StyleSpecification = { version: 8, sources: {}, layers: [] };
    const instance = new MaplibreMap({
      container: container.current,
      style,
      center: [MAP_DEFAULTS.lng, MAP_DEFAULTS.lat],
      zoom: toGlZoom(MAP_DEFAULTS.zoom),
      minZoom: toGlZoom(MAP_DEFAULTS.minZoom),
      maxZoom: toGlZoom(MAX_ZOOM),
      attributionControl: false,
      doubleClickZoom: false,
      dragRotate: false,
      pitchWithRotate: false,
      touchPitch: false,
      fadeDuration: 0,
    });
    instance.touchZoomRotate.disableRotation();
    instance.keyboard.disableRotation();
    instance.getCanvas().setAttribute('aria-label', 'Map of devices. Arrow keys pan, plus and minus zoom.');
    // Dynamic resolution: on a software rasteriser, draw at half resolution while moving (smooth
    // panning) and at full resolution once still (crisp pins and lines).
    if (isSoftwareWebGL()) {
      const full = () => window.devicePixelRatio || 1;
      let moving = false;
      let adjusting = false;
      // setPixelRatio resizes the canvas, and a resize outside a movement fires its own
      // movestart/moveend (and stops a camera animation): hence the deferral and the guard.
      const setRatio = (ratio: number) => {
        if (instance.getPixelRatio() === ratio) return;
        adjusting = true;
        try {
          instance.setPixelRatio(ratio);
        } finally {
          adjusting = false;
        }
      };
      instance.on('movestart', () => {
        if (adjusting) return;
        moving = true;
        requestAnimationFrame(() => {
          if (moving) setRatio(Math.min(full(), MOVING_PIXEL_RATIO));
        });
      });
      instance.on('moveend', () => {
        if (adjusting) return;
        moving = false;
        setRatio(full());
      });
      container.current.dataset.dynamicResolution = 'true';
    }
    instance.on('load', () => setMap(instance));
    return () => {
      setMap(null);
      instance.remove();
    };
  }, []);

  return (
    <div ref={container} className={styles.map} data-map-provider="offline" data-testid="fleet-map">
      {map ? (
        <OfflineMapContext.Provider value={map}>
          <CountyLayer />
          <PinsLayer />
          <LabelsLayer />
          <ViewSync />
        </OfflineMapContext.Provider>
      ) : null}
    </div>
  );
}
