/**
 * Whether WebGL runs on a software rasteriser (SwiftShader, llvmpipe: headless browsers, VMs, remote
 * desktops). There every frame is drawn by the CPU and copied back for compositing, so the cost grows
 * with the canvas's pixel count, not with the number of pins.
 */
export function isSoftwareWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
  } catch {
    return false;
  }
}

/** While the map moves on a software rasteriser it draws at this pixel ratio, then returns to full. */
export const MOVING_PIXEL_RATIO = 0.5;
