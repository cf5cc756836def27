/**
 * Gzip for request bodies: the browser's own CompressionStream, off the main thread, at zlib's
 * ratio, for no bytes of bundle. A browser without it (Safari < 16.4, Firefox < 113) sends plain
 * JSON instead (client.ts decides), and so does the unload beacon, which cannot wait for a stream
 * (beacon.ts). A synchronous encoder of our own for those two cases cost about 620 B gzip of the
 * script tag (measured 2026-11-27) for a saving that only old browsers and the page's last beacon
 * would see.
 */
export function gzipBody(text: string): Promise<Uint8Array> {
  const stream = new Response(text).body!.pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).arrayBuffer().then((buffer) => new Uint8Array(buffer));
}
