/**
 * Canvas in the recording, as posthog-js records it: off unless the project's settings
 * (`sessionRecording.recordCanvas`, `canvasFps`, `canvasQuality`) or the init option
 * `session_recording.captureCanvas: { recordCanvas, canvasFps, canvasQuality }` turn it on (the
 * init option wins, field by field). On, rrweb snapshots each canvas `fps` times a second (at most
 * 12, 4 by default) as a WebP image of `quality` (0 to 1, 0.4 by default), which PostHog's player
 * draws back. rrweb 2.1.6 carries this in every build (its canvas manager and image worker are in
 * the recorder file either way), so turning it on costs the file nothing.
 */
import { isObject } from '../../core/special-events';

const DEFAULT_FPS = 4;
const MAX_FPS = 12;
const DEFAULT_QUALITY = 0.4;

/** rrweb's options for canvas recording. */
export interface CanvasOptions {
  readonly recordCanvas: true;
  readonly sampling: { readonly canvas: number };
  readonly dataURLOptions: { readonly type: 'image/webp'; readonly quality: number };
}

/** A number (the server sends some as strings) within [0, max]; out of range is clamped, anything else is the default. */
function clamp(value: unknown, max: number, fallback: number): number {
  const parsed = typeof value === 'string' ? Number.parseFloat(value) : value;
  if (typeof parsed !== 'number' || Number.isNaN(parsed)) return fallback;
  return Math.min(max, Math.max(0, parsed));
}

/** rrweb's canvas options, or undefined when canvas is not recorded. */
export function readCanvas(server: Record<string, unknown>, local: Record<string, unknown>): CanvasOptions | undefined {
  const own = isObject(local.captureCanvas) ? local.captureCanvas : {};
  if (!(own.recordCanvas ?? server.recordCanvas)) return undefined;
  return {
    recordCanvas: true,
    sampling: { canvas: clamp(own.canvasFps ?? server.canvasFps, MAX_FPS, DEFAULT_FPS) },
    dataURLOptions: { type: 'image/webp', quality: clamp(own.canvasQuality ?? server.canvasQuality, 1, DEFAULT_QUALITY) },
  };
}

/** rrweb's options with canvas recording added (its frame rate joins the app's other sampling). */
export function withCanvas<T extends { sampling?: object }>(options: T, canvas: CanvasOptions | undefined): T {
  return canvas ? { ...options, ...canvas, sampling: { ...options.sampling, ...canvas.sampling } } : options;
}
