/**
 * Node's native zlib, off the main thread. bench/node-throughput.js measures it against fflate:
 * for the 100-500 KB bodies a busy client sends, zlib costs a fraction of the CPU and does not
 * block the event loop, so Node uses it. The browser and the edge entry use CompressionStream.
 */
import { gzip } from 'node:zlib';

export function gzipWithZlib(body: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    gzip(body, { level: 6 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}
