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

/**
 * The loading map's first full picture, one group of layers a frame, on a software rasteriser. That picture
 * was one frame that compiled every layer's shaders and uploaded all of their tiles' buffers and icon
 * atlases, and the page's main thread waited for the rasteriser to draw it: 133-143 ms here, more than half
 * a second under Lighthouse's 4x CPU slowdown (tests/perf/map-trace.ts). Drawn a group a frame, each frame
 * takes on one group's first-use work: 5 frames of 40-65 ms, the whole picture about 0.3 s after the data.
 *
 * `stages` are tests on a layer's id, in the order the groups join; a layer no test names joins with the
 * first group (an operator's basemap, say). Until `arm()` (the map's own layers are added) everything is
 * drawn. Once armed, a frame draws the layers of the groups up to the current one; `advance()`, called when
 * such a frame has drawn everything its sources had loaded, lets the next group join, and answers false once
 * every group is in (from then on everything is drawn); `finish()` lets every group in at once.
 */
export function layerReveal(stages: readonly ((layerId: string) => boolean)[]) {
  let stage = -1;
  const stageOf = (layerId: string) => Math.max(0, stages.findIndex((test) => test(layerId)));
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
    /** Every group joins now (a source that never finishes loading must not keep the rest hidden). */
    finish() {
      stage = stages.length;
    },
  };
}
