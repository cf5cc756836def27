/**
 * A small synchronous gzip encoder (RFC 1951 fixed-Huffman block, RFC 1952 wrapper) for where
 * only a synchronous answer will do and every byte of code counts: the browser's unload beacon,
 * and browsers without CompressionStream. It is about 0.5 KB gzipped where fflate's gzipSync is
 * 3.5 KB; the price is ratio (fixed codes, one hash candidate per position), which on batches of
 * JSON events stays within a few percent of zlib because LZ77 matches do nearly all the work.
 * Correctness is checked against node:zlib in test/core/gzip-small.test.ts.
 */
let crcTable: Int32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]!) & 255]! ^ (crc >>> 8);
  return ~crc;
}

export function gzipSmall(text: string): Uint8Array {
  const input = new TextEncoder().encode(text);
  const size = input.length;
  // Worst case: every byte a 9-bit literal, plus header, trailer and slack.
  const out = new Uint8Array(((size * 9) >> 3) + 32);
  let bitBuffer = 0;
  let bitCount = 0;
  let pos = 10;
  const put = (value: number, bits: number) => {
    bitBuffer |= value << bitCount;
    bitCount += bits;
    while (bitCount >= 8) {
      out[pos++] = bitBuffer & 255;
      bitBuffer >>>= 8;
      bitCount -= 8;
    }
  };
  // Huffman codes are sent most significant bit first, everything else least significant first.
  const code = (value: number, bits: number) => {
    let reversed = 0;
    for (let i = 0; i < bits; i++) reversed = (reversed << 1) | ((value >> i) & 1);
    put(reversed, bits);
  };
  const symbol = (s: number) => {
    if (s < 144) code(0x30 + s, 8);
    else if (s < 256) code(0x190 + s - 144, 9);
    else if (s < 280) code(s - 256, 7);
    else code(0xc0 + s - 280, 8);
  };
  // length 3..258 -> code 257..285 with extra bits; distance 1..32768 -> code 0..29 with extra bits.
  const lengthCode = (length: number) => {
    if (length === 258) return symbol(285);
    let extra = 0;
    while (length - 3 >= 8 << extra) extra++;
    const offset = length - 3 - (extra ? 4 << extra : 0);
    const c = extra ? 261 + extra * 4 + (offset >> extra) : 257 + length - 3;
    symbol(c);
    if (extra) put(offset & ((1 << extra) - 1), extra);
  };
  const distanceCode = (distance: number) => {
    let extra = 0;
    while (distance - 1 >= 4 << extra) extra++;
    const offset = distance - 1 - (extra ? 2 << extra : 0);
    code(extra ? 2 + extra * 2 + (offset >> extra) : distance - 1, 5);
    if (extra) put(offset & ((1 << extra) - 1), extra);
  };

  put(3, 3); // final block, fixed Huffman
  const head = new Int32Array(1 << 15).fill(-1);
  for (let i = 0; i < size; ) {
    let best = 0;
    if (i + 2 < size) {
      const hash = ((input[i]! << 10) ^ (input[i + 1]! << 5) ^ input[i + 2]!) & 0x7fff;
      const candidate = head[hash]!;
      head[hash] = i;
      if (candidate >= 0 && i - candidate <= 32768) {
        const limit = Math.min(258, size - i);
        while (best < limit && input[candidate + best] === input[i + best]) best++;
        if (best >= 3) {
          lengthCode(best);
          distanceCode(i - candidate);
          // Index the skipped positions so later matches can start inside this one.
          for (let j = i + 1; j < i + best && j + 2 < size; j++) {
            head[((input[j]! << 10) ^ (input[j + 1]! << 5) ^ input[j + 2]!) & 0x7fff] = j;
          }
          i += best;
          continue;
        }
      }
    }
    symbol(input[i++]!);
  }
  symbol(256);
  put(0, 7); // flush the last partial byte

  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
  const crc = crc32(input);
  for (let i = 0; i < 4; i++) out[pos + i] = (crc >>> (8 * i)) & 255;
  for (let i = 0; i < 4; i++) out[pos + 4 + i] = (size >>> (8 * i)) & 255;
  return out.subarray(0, pos + 8);
}
