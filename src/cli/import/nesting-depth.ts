/**
 * How deeply a row nests. JSON.parse takes any depth, but the real server's JSON reader stops at
 * 128 levels (and refuses the whole request), and a recursive walk over a 20,000-level value
 * overflows the stack. So a row deeper than MAX_ROW_DEPTH is rejected with its line before
 * anything else reads it; this walk goes no deeper than that, so it cannot overflow itself.
 */

/** Levels of objects and arrays in a row; the batch envelope adds two more on the wire. */
export const MAX_ROW_DEPTH = 100;

/** True when `value` has objects or arrays nested more than `limit` levels deep. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return value !== null && typeof value === 'object' && exceeds(value, limit);
}

/**
 * Recursive, but never deeper than `levelsLeft` (at most MAX_ROW_DEPTH frames): it stops there,
 * so no input can overflow the stack. Measured faster than an explicit stack, and this runs once
 * per imported row.
 */
function exceeds(value: object, levelsLeft: number): boolean {
  if (levelsLeft === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value as unknown[]) {
      if (child !== null && typeof child === 'object' && exceeds(child, levelsLeft - 1)) return true;
    }
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const child = record[key];
    if (child !== null && typeof child === 'object' && exceeds(child, levelsLeft - 1)) return true;
  }
  return false;
}
