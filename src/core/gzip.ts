/** fflate's gzip, the default compressor wherever no native one is handed in. */
import { gzipSync, strToU8 } from 'fflate';

export function gzipWithFflate(body: string): Uint8Array {
  return gzipSync(strToU8(body), { level: 6, mem: 8 });
}
