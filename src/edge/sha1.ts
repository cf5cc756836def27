/**
 * SHA-1 for local flag evaluation on the edge. PostHog's bucketing hash is sha1, and the flag
 * engine calls it synchronously for every rollout and variant check; Web Crypto's digest is
 * asynchronous only, and an edge runtime has no node:crypto, so the edge client hands the engine
 * this one: FIPS 180-4 over the UTF-8 bytes of the text, hex out. The inputs are short (a flag key
 * and an id), so a plain implementation costs about a microsecond.
 */

const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));

/** K for rounds 0-19, 20-39, 40-59 and 60-79. */
const ROUND_CONSTANTS = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/** The message padded to whole 64-byte blocks, with its bit length at the end (big-endian). */
function pad(bytes: Uint8Array): DataView {
  const length = Math.ceil((bytes.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = bytes.length * 8;
  view.setUint32(length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(length - 4, bits >>> 0);
  return view;
}

/** Mixes one 64-byte block into the state `h` (five 32-bit words). */
function compress(h: Uint32Array, view: DataView, offset: number, w: Uint32Array): void {
  for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
  for (let t = 16; t < 80; t++) w[t] = rotl(w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!, 1);
  let a = h[0]!,
    b = h[1]!,
    c = h[2]!,
    d = h[3]!,
    e = h[4]!;
  for (let t = 0; t < 80; t++) {
    const k = ROUND_CONSTANTS[(t / 20) | 0]!;
    const f = t < 20 ? (b & c) | (~b & d) : t < 40 || t >= 60 ? b ^ c ^ d : (b & c) | (b & d) | (c & d);
    const next = (rotl(a, 5) + f + e + k + w[t]!) | 0;
    e = d;
    d = c;
    c = rotl(b, 30);
    b = a;
    a = next;
  }
  h[0] = h[0]! + a;
  h[1] = h[1]! + b;
  h[2] = h[2]! + c;
  h[3] = h[3]! + d;
  h[4] = h[4]! + e;
}

export function sha1Hex(text: string): string {
  const view = pad(new TextEncoder().encode(text));
  const h = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  const w = new Uint32Array(80);
  for (let offset = 0; offset < view.byteLength; offset += 64) compress(h, view, offset, w);
  return Array.from(h, (word) => word.toString(16).padStart(8, '0')).join('');
}
