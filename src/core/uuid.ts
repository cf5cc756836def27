/**
 * UUIDv7 (RFC 9562): 48-bit millisecond timestamp, a 42-bit counter, 32 random bits. Time-ordered
 * ids index well on the server and let a resend be recognised as the same event.
 *
 * The counter is the RFC's "fixed bit-length dedicated counter" (method 1): seeded at random each
 * new millisecond with its top bit clear for headroom, then incremented for every id in the same
 * millisecond. Ids made together therefore share a long prefix, which gzip folds away: about 6
 * bytes less per event on the wire than 74 fresh random bits. The 32 random bits per id still make
 * ids from different processes collide only by chance of 2^-32 within one millisecond *and* one
 * counter value. Random bytes come from a pooled crypto.getRandomValues call because one call per
 * event dominated capture() cost.
 */
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let poolOffset = POOL_SIZE;

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? '0' : '') + i.toString(16));

function randomOffset(count: number): number {
  if (poolOffset + count > POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += count;
  return start;
}

let lastMs = -1;
/** The counter's high 12 bits (rand_a) and low 30 bits (top of rand_b). */
let counterHigh = 0;
let counterLow = 0;

export function uuidv7(now: number = Date.now()): string {
  const r = randomOffset(10);
  let ms = now;
  if (ms > lastMs) {
    lastMs = ms;
    counterHigh = ((pool[r + 4]! << 8) | pool[r + 5]!) & 0x7ff;
    counterLow = ((pool[r + 6]! << 22) | (pool[r + 7]! << 14) | (pool[r + 8]! << 6) | (pool[r + 9]! >>> 2)) >>> 0;
  } else {
    // Same millisecond, or the clock went back: count on from the last id so order holds.
    ms = lastMs;
    counterLow = (counterLow + 1) & 0x3fffffff;
    if (counterLow === 0) {
      counterHigh = (counterHigh + 1) & 0xfff;
      if (counterHigh === 0) ms = ++lastMs; // 2^42 ids in one ms cannot happen; stay correct anyway
    }
  }
  const hi = Math.floor(ms / 0x100000000);
  const lo = ms >>> 0;
  const h = HEX;
  return (
    h[(hi >>> 8) & 0xff]! + h[hi & 0xff]! + h[lo >>> 24]! + h[(lo >>> 16) & 0xff]! + '-' +
    h[(lo >>> 8) & 0xff]! + h[lo & 0xff]! + '-' +
    h[0x70 | (counterHigh >>> 8)]! + h[counterHigh & 0xff]! + '-' +
    h[0x80 | (counterLow >>> 24)]! + h[(counterLow >>> 16) & 0xff]! + '-' +
    h[(counterLow >>> 8) & 0xff]! + h[counterLow & 0xff]! +
    h[pool[r]!]! + h[pool[r + 1]!]! + h[pool[r + 2]!]! + h[pool[r + 3]!]!
  );
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
