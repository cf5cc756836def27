/**
 * UUIDv7 (RFC 9562): 48-bit millisecond timestamp, then randomness. Time-ordered ids index well on
 * the server and let a resend be recognised as the same event. Random bytes come from a pooled
 * crypto.getRandomValues call because one call per event dominated capture() cost.
 */
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let poolOffset = POOL_SIZE;

const HEX: string[] = [];
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? '0' : '') + i.toString(16));

function randomBytes(count: number): number {
  if (poolOffset + count > POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += count;
  return start;
}

// Within one millisecond, ids stay ordered by incrementing a counter in the random bits.
let lastMs = -1;
let sequence = 0;

export function uuidv7(now: number = Date.now()): string {
  const r = randomBytes(10);
  let ms = now;
  if (ms <= lastMs) {
    ms = lastMs;
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) ms = ++lastMs; // 4096 ids in one ms: borrow the next ms to stay monotonic
  } else {
    lastMs = ms;
    sequence = (pool[r]! << 4) & 0xff0; // random start leaves room to count up
  }
  const hi = Math.floor(ms / 0x100000000);
  const lo = ms >>> 0;
  const h = HEX;
  return (
    h[(hi >>> 8) & 0xff]! + h[hi & 0xff]! + h[lo >>> 24]! + h[(lo >>> 16) & 0xff]! + '-' +
    h[(lo >>> 8) & 0xff]! + h[lo & 0xff]! + '-' +
    h[0x70 | (sequence >>> 8)]! + h[sequence & 0xff]! + '-' +
    h[0x80 | (pool[r + 1]! & 0x3f)]! + h[pool[r + 2]!]! + '-' +
    h[pool[r + 3]!]! + h[pool[r + 4]!]! + h[pool[r + 5]!]! + h[pool[r + 6]!]! + h[pool[r + 7]!]! + h[pool[r + 8]!]!
  );
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
