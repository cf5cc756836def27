/**
 * CRC-32 (IEEE 802.3, the one zlib and gzip use), so a damaged journal record is recognised and
 * skipped instead of being sent as garbage. Written here because zlib.crc32 only exists from Node
 * 20.15 and the package supports every Node 20.
 */
const TABLE = new Int32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c;
}

/** CRC-32 of bytes[start, end), as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = -1;
  for (let i = start; i < end; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
