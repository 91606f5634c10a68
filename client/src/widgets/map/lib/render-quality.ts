/**
 * Whether a WebGL context runs on a software rasteriser (SwiftShader, llvmpipe: headless browsers, VMs,
 * remote desktops). There every frame is drawn by the CPU and copied back for compositing, so the cost grows
 * with the canvas's pixel count, not with the number of pins. Asked of the map's own context: a context
 * made only to ask costs the page 5-20 ms of its main thread (the GPU process makes and loses it).
 */
export function isSoftwareRenderer(gl: WebGLRenderingContext | WebGL2RenderingContext): boolean {
  try {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
  } catch {
    return false;
  }
}

/**
 * Creates and drops a 1x1 WebGL context: the page's first context sets up the browser's connection to its
 * GPU process (in Debian's Chromium with SwiftShader 32-39 ms for the first context against 12-21 ms for a
 * later one, measured in a bare page), so the map's own context, made inside MapLibre's constructor, costs
 * only its own share. Answers whether that context ran on a software rasteriser (the map is made to suit:
 * offline-map.tsx), false where WebGL is missing.
 */
export function warmUpWebGl(): boolean {
  try {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const gl = canvas.getContext('webgl2') ?? canvas.getContext('webgl');
    if (!gl) return false;
    const software = isSoftwareRenderer(gl);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return software;
  } catch {
    /* no WebGL: the map reports it when it starts */
    return false;
  }
}

/** While the map moves on a software rasteriser it draws at this pixel ratio, then returns to full. */
export const MOVING_PIXEL_RATIO = 0.5;

/** While the map loads on a software rasteriser, the shortest time between two of its frames (see frameGate). */
export const LOADING_FRAME_GAP_MS = 250;

type Clock = { now(): number; setTimeout(run: () => void, ms: number): unknown; clearTimeout(timer: unknown): void };
const browserClock: Clock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/**
 * Spaces the frames a map asks for. While closed, at most one frame every `gapMs`: a frame asked for within
 * the gap is drawn at its end, once however often it was asked for, with everything that arrived by then.
 * While open, every frame asked for is drawn at once. A map that loads asks for a frame for each tile,
 * source and glyph set that arrives (13-14 in a signed-in load, 60-100 ms apart); on a software rasteriser
 * each frame costs the GPU process and the page's main thread whatever changed, so the loading map draws
 * half as many frames and ends in the same picture.
 */
export function frameGate(draw: () => void, gapMs: number, clock: Clock = browserClock) {
  let open = false;
  let lastFrame = -Infinity;
  let deferred: unknown = null;
  const drawNow = () => {
    if (deferred !== null) clock.clearTimeout(deferred);
    deferred = null;
    lastFrame = clock.now();
    draw();
  };
  return {
    /** A frame is wanted. */
    request() {
      if (open) return drawNow();
      if (deferred !== null) return;
      const wait = lastFrame + gapMs - clock.now();
      if (wait <= 0) drawNow();
      else deferred = clock.setTimeout(drawNow, wait);
    },
    /** Every frame from now on is drawn when asked for; one waiting is drawn now. */
    open() {
      open = true;
      if (deferred !== null) drawNow();
    },
    /** Frames are spaced again. */
    close() {
      open = false;
    },
    /** Nothing waiting is drawn (the map is gone). */
    stop() {
      if (deferred !== null) clock.clearTimeout(deferred);
      deferred = null;
    },
  };
}

/** While a shown map's pins are loaded on a software rasteriser, how often a held frame asks whether they have (holdFrames). */
export const HOLD_POLL_MS = 50;
/** The longest a frame is held while pins load (holdFrames): whatever else changed is drawn by then. */
export const HOLD_MAX_MS = 1_500;

/**
 * Holds a shown map's frames while `busy()` (its pins' source has work in MapLibre's worker: new data
 * parsed and clustered, its tiles laid out again), and draws one when it is done. On a software rasteriser
 * each frame of a shown canvas is copied back for compositing on the page's main thread, which waits for
 * the GPU process to draw it first; while MapLibre's worker lays out the pins' tiles the two cores are
 * taken, and at 100,000 devices the pins' tiles arriving one after another were four frames of 100-300 ms
 * under a 4x CPU slowdown (tests/perf/map-trace.ts beside the bench's calibrated load). Held, the picture
 * on screen stays the one before until the pins are all laid out, then changes at once: one frame, drawn
 * when the workers are done. Nothing has to be drawn for the tiles to load (MapLibre reloads a source's
 * tiles when its data changes). `request(now)` with `now` true (the map is moving, or hidden) draws at
 * once; a frame held longer than `maxMs` is drawn then, so a source that stays busy (a stream of live
 * changes) still shows them at that pace.
 */
export function holdFrames(draw: () => void, busy: () => boolean, maxMs = HOLD_MAX_MS, clock: Clock = browserClock) {
  let heldSince: number | null = null;
  let poll: unknown = null;
  const drawNow = () => {
    if (poll !== null) clock.clearTimeout(poll);
    poll = null;
    heldSince = null;
    draw();
  };
  const check = () => {
    poll = null;
    if (heldSince === null || stopped) return;
    if (!busy() || clock.now() - heldSince >= maxMs) return drawNow();
    poll = clock.setTimeout(check, HOLD_POLL_MS);
  };
  let deciding = false;
  let stopped = false;
  const decide = () => {
    deciding = false;
    if (stopped) return;
    if (!busy() || (heldSince !== null && clock.now() - heldSince >= maxMs)) return drawNow();
    if (heldSince === null) heldSince = clock.now();
    if (poll === null) poll = clock.setTimeout(check, HOLD_POLL_MS);
  };
  return {
    /**
     * A frame is wanted; `now`: draw it whatever the source is doing. Otherwise it is decided after the
     * event that asked for it has reached every listener: new data reaches the map (which asks for a frame)
     * before the source's tiles are marked for reloading, so asked at once the source looked idle.
     */
    request(now = false) {
      if (now) return drawNow();
      if (deciding) return;
      deciding = true;
      queueMicrotask(decide);
    },
    /** Whether a frame is being held. */
    get holding() {
      return heldSince !== null;
    },
    /** Nothing held is drawn (the map is gone). */
    stop() {
      if (poll !== null) clock.clearTimeout(poll);
      poll = null;
      heldSince = null;
      stopped = true;
    },
  };
}

/** How often a hidden map asks whether the GPU has finished drawing (a fence's status; the question does not wait). */
export const REVEAL_POLL_MS = 16;

/** Whether the GPU has executed everything asked of it up to a point (a WebGL2 fence), asked without waiting; `release` frees the fence. */
export type DrawnCheck = { drawn(): boolean; release(): void };

/**
 * A WebGL2 fence after everything asked of `gl` so far, and a check of it that does not wait (Chromium
 * answers a fence's status from what the GPU process last reported). The flush sends the frame's commands
 * to the GPU process now rather than when the page next composites. Null without WebGL2 fences.
 */
export function fenceCheck(gl: WebGLRenderingContext | WebGL2RenderingContext): DrawnCheck | null {
  if (!('fenceSync' in gl)) return null;
  let sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!sync) return null;
  gl.flush();
  const release = () => {
    if (sync) gl.deleteSync(sync);
    sync = null;
  };
  return {
    drawn() {
      if (!sync) return true;
      const signalled = gl.getSyncParameter(sync, gl.SYNC_STATUS) === gl.SIGNALED;
      if (signalled) release();
      return signalled;
    },
    release,
  };
}

/**
 * The loading map's canvas on a software rasteriser stays hidden until the GPU has drawn its first complete
 * picture, then shows it whole. There the GPU process draws with the CPU, compiling each layer's shaders and
 * draw states the first time it meets them, and a visible WebGL canvas is copied back for compositing at
 * every frame, so the page's main thread waited for all of that: frames of 60-190 ms while the map loaded
 * (more than half a second each under Lighthouse's 4x CPU slowdown; tests/perf/map-trace.ts). A hidden
 * canvas is not copied back: the GPU process draws it while the main thread stays free, and a fence says
 * when it has finished.
 *
 * `frameDrawn(complete)` after each frame the map draws (complete: its layers are in and every source had
 * loaded). Once the GPU has finished the last complete frame, `more()` may ask for another one (the next
 * group of layers, layerReveal: asked for only now, so the next frame's JavaScript, which links shaders and
 * waits for the GPU process to do it, does not also wait behind this frame's drawing) and answers true,
 * else the picture is shown (`show('done')`); `show('timed out')` after `waitMs` whatever happened (a
 * source that never loads, a fence that never answers). `fence` makes a fence after a complete frame
 * (fenceCheck; null: no fences, the frame counts as drawn at the next poll).
 */
export function revealWhenDrawn(options: {
  fence: () => DrawnCheck | null;
  show: (how: 'done' | 'timed out') => void;
  more?: () => boolean;
  waitMs: number;
  clock?: Clock;
}) {
  const clock = options.clock ?? browserClock;
  let hidden = true;
  let pending: DrawnCheck | null = null;
  let poll: unknown = null;
  const drop = () => {
    pending?.release();
    pending = null;
    if (poll !== null) clock.clearTimeout(poll);
    poll = null;
  };
  const show = (how: 'done' | 'timed out') => {
    if (!hidden) return;
    hidden = false;
    clock.clearTimeout(fallback);
    drop();
    options.show(how);
  };
  const fallback = clock.setTimeout(() => show('timed out'), options.waitMs);
  const check = () => {
    poll = null;
    if (!pending?.drawn()) {
      poll = clock.setTimeout(check, REVEAL_POLL_MS);
      return;
    }
    pending.release();
    pending = null;
    if (!options.more?.()) show('done');
  };
  return {
    get hidden() {
      return hidden;
    },
    frameDrawn(complete: boolean) {
      if (!hidden) return;
      // A later frame supersedes an earlier one: the GPU draws in order, and only a complete one counts.
      drop();
      if (!complete) return;
      pending = options.fence() ?? { drawn: () => true, release: () => undefined };
      poll = clock.setTimeout(check, REVEAL_POLL_MS);
    },
    /** The map is gone: nothing is shown. */
    stop() {
      hidden = false;
      clock.clearTimeout(fallback);
      drop();
    },
  };
}

/**
 * The loading map's first full picture, one group of layers a frame, on a software rasteriser (while its
 * canvas is hidden: revealWhenDrawn). That picture was one frame whose JavaScript linked every layer's
 * shaders (waiting for the GPU process to compile them), uploaded all of their tiles' buffers and icon
 * atlases and placed every symbol: 80-90 ms here, over 300 ms under Lighthouse's 4x CPU slowdown
 * (tests/perf/map-trace.ts). Drawn a group a frame, each frame takes on one group's first-use work, and
 * the next group's frame waits until the GPU has drawn this one.
 *
 * `stages` are tests on a layer's id, in the order the groups join; a layer no test names joins with the
 * first group (an operator's basemap, say). Until `arm()` (the map's own layers are added) everything is
 * drawn. Once armed, a frame draws the layers of the groups up to the current one; `advance()`, called when
 * such a frame has drawn everything its sources had loaded, lets the next group join, and answers false once
 * every group is in (from then on everything is drawn); `finish()` lets every group in at once.
 */
export function layerReveal(stages: readonly ((layerId: string) => boolean)[]) {
  let stage = -1;
  const stageOf = (layerId: string) =>
    Math.max(
      0,
      stages.findIndex((test) => test(layerId)),
    );
  return {
    arm() {
      if (stage === -1) stage = 0;
    },
    get revealing() {
      return stage >= 0 && stage < stages.length;
    },
    shows(layerId: string): boolean {
      return stage < 0 || stage >= stages.length || stageOf(layerId) <= stage;
    },
    advance(): boolean {
      if (stage < 0 || stage >= stages.length) return false;
      stage += 1;
      return stage < stages.length;
    },
    /**
     * Whether a frame drew everything it shows: all loaded, or every layer whose source is still loading
     * (`busy`, layer ids) is in a group that has not joined yet. So the groups before the pins are drawn while
     * MapLibre's worker is still parsing 100,000 pins, rather than one by one after.
     */
    complete(loaded: boolean, busy: () => readonly string[]): boolean {
      if (loaded) return true;
      if (stage < 0 || stage >= stages.length) return false;
      const waiting = busy();
      return waiting.length > 0 && waiting.every((layerId) => stageOf(layerId) > stage);
    },
    /** Every group joins now (a source that never finishes loading must not keep the rest hidden). */
    finish() {
      stage = stages.length;
    },
  };
}
