/**
 * A small synchronous gzip encoder (RFC 1951 fixed-Huffman block, RFC 1952 wrapper) for where
 * only a synchronous answer will do and every byte of code counts: the browser's unload beacon,
 * and browsers without CompressionStream. It is about 0.5 KB gzipped where fflate's gzipSync is
 * 3.5 KB; the price is ratio (fixed codes, one hash candidate per position), which on batches of
 * JSON events stays within a few percent of zlib because LZ77 matches do nearly all the work.
 * Correctness is checked against node:zlib in test/core/gzip-small.test.ts.
 */
// Built once at load (2,048 steps): shorter than building it lazily, and every use needs it.
// Pure: a bundle that never calls gzipSmall (the lite script tag) drops the table too.
const CRC_TABLE = /* @__PURE__ */ new Int32Array(256).map((_, n) => {
  for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1;
  return n;
});

export function gzipSmall(text: string): Uint8Array {
  const input = new TextEncoder().encode(text);
  const size = input.length;
  // Worst case: every byte a 9-bit literal (9/8 of the input), plus header, trailer and slack.
  const out = new Uint8Array(size * 2 + 32);
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
    while (bits--) put((value >> bits) & 1, 1);
  };
  // The fixed code (RFC 1951 3.2.6): 0-143 -> 0x30+, 144-255 -> 0x190+, 256-279 -> 0+, 280-287 -> 0xc0+.
  const symbol = (s: number) =>
    s < 144 ? code(s + 0x30, 8) : s < 256 ? code(s + 0x100, 9) : s < 280 ? code(s - 256, 7) : code(s - 88, 8);
  const hash = (j: number) => ((input[j]! << 10) ^ (input[j + 1]! << 5) ^ input[j + 2]!) & 0x7fff;
  // length 3..258 -> code 257..285, distance 1..32768 -> code 0..29: both are `base` codes per
  // number of extra bits, so one function encodes either (value = length - 3 or distance - 1).
  const lz = (value: number, base: number, emit: (c: number) => void) => {
    let extra = 0;
    while (value >= base << (extra + 1)) extra++;
    const offset = value - (extra ? base << extra : 0);
    emit(extra ? base + extra * base + (offset >> extra) : value);
    if (extra) put(offset & ((1 << extra) - 1), extra);
  };

  put(3, 3); // final block, fixed Huffman
  const head = new Int32Array(1 << 15).fill(-1);
  // Hashing the last two positions reads past the end (undefined, so 0): harmless, since every
  // candidate is checked byte by byte, and an unset one (-1) never matches.
  for (let i = 0; i < size; ) {
    const h = hash(i);
    const candidate = head[h]!;
    head[h] = i;
    let best = 0;
    if (i - candidate <= 32768) {
      while (best < 258 && i + best < size && input[candidate + best] === input[i + best]) best++;
    }
    if (best < 3) symbol(input[i++]!);
    else {
      if (best === 258) symbol(285);
      else lz(best - 3, 4, (c) => symbol(257 + c));
      lz(i - candidate - 1, 2, (c) => code(c, 5));
      // Index the skipped positions so later matches can start inside this one.
      while (--best) head[hash(++i)] = i;
      i++;
    }
  }
  symbol(256);
  put(0, 7); // flush the last partial byte

  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
  let crc = -1;
  for (const byte of input) crc = CRC_TABLE[(crc ^ byte) & 255]! ^ (crc >>> 8);
  const trailer = new DataView(out.buffer);
  trailer.setInt32(pos, ~crc, true);
  trailer.setInt32(pos + 4, size, true);
  return out.subarray(0, pos + 8);
}
