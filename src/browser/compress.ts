/**
 * Gzip for request bodies. The browser's own CompressionStream does it natively, off the main
 * thread, at zlib's ratio, for no bytes of bundle; where it is missing (Safari < 16.4, Firefox
 * < 113) the small synchronous encoder stands in. fflate's gzipSync would cost 3.5 KB of the
 * script tag's 10 KB budget for what the platform already has.
 */
import { gzipSmall } from '../core/gzip-small';
import { LITE } from './build-flags';

export function gzipBody(text: string): Uint8Array | Promise<Uint8Array> {
  // The lite build never gets here without CompressionStream (it sends plain JSON then).
  if (!LITE && typeof CompressionStream !== 'function') return gzipSmall(text);
  const stream = new Response(text).body!.pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).arrayBuffer().then((buffer) => new Uint8Array(buffer));
}
