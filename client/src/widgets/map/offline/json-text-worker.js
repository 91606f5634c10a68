/* global self, TextDecoder */
/*
 * Loaded into MapLibre's workers (importScriptInWorkers, json-text.ts). A GeoJSON source's data may
 * come as its JSON text in a String object (setDataAsText), or as its UTF-8 JSON bytes in a Uint8Array
 * (setJsonBytes: the pins, transferred, not copied): MapLibre posts such a value as it is, where a plain
 * GeoJSON object is first copied in JavaScript on the page's thread, property by property (the
 * 10,000-device map's pins: one task of over 200 ms under a 4x CPU slowdown). It is parsed here, on the
 * worker's thread, before MapLibre's own handler of its 'LD' (loadData) message reads it.
 * Relies on MapLibre internals (the worker's actor and that message's type), pinned with maplibre-gl's
 * version; it throws when they are not there, so the page keeps sending objects (json-text.ts).
 */
(function () {
  var actor = self.worker && self.worker.actor;
  var handlers = actor && actor.messageHandlers;
  if (self.__fleetJsonText) return;
  if (!handlers || typeof handlers.LD !== 'function') throw new Error('MapLibre worker without a loadData handler');
  var load = handlers.LD;
  handlers.LD = function (mapId, params) {
    if (params && params.data instanceof String) params.data = JSON.parse(String(params.data));
    else if (params && params.data instanceof Uint8Array) params.data = JSON.parse(new TextDecoder().decode(params.data));
    return load(mapId, params);
  };
  self.__fleetJsonText = true;
})();
