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
const POOL_SIZE = 1024;
const pool = new Uint32Array(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** A random 32-bit word from the pool. */
function random32(): number {
  if (poolOffset === POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

const hex = (value: number, digits: number) => value.toString(16).padStart(digits, '0');

let lastMs = -1;
/** The counter's high 12 bits (rand_a) and low 30 bits (top of rand_b). */
let counterHigh = 0;
let counterLow = 0;

export function uuidv7(now: number = Date.now()): string {
  let ms = now;
  if (ms > lastMs) {
    lastMs = ms;
    counterHigh = random32() & 0x7ff;
    counterLow = random32() & 0x3fffffff;
  } else {
    // Same millisecond, or the clock went back: count on from the last id so order holds.
    ms = lastMs;
    counterLow = (counterLow + 1) & 0x3fffffff;
    if (counterLow === 0) {
      counterHigh = (counterHigh + 1) & 0xfff;
      if (counterHigh === 0) ms = ++lastMs; // 2^42 ids in one ms cannot happen; stay correct anyway
    }
  }
  // Numbers as hex rather than byte tables: fewer bytes in the script tag, same layout.
  const time = hex(ms, 12);
  const low = hex(0x80000000 + counterLow, 8); // variant bits 10, then the 30 counter bits
  return (
    time.slice(0, 8) +
    '-' +
    time.slice(8) +
    '-' +
    hex(0x7000 + counterHigh, 4) +
    '-' +
    low.slice(0, 4) +
    '-' +
    low.slice(4) +
    hex(random32(), 8)
  );
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
