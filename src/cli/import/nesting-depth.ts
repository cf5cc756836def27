/**
 * How deeply a row nests. JSON.parse takes any depth, but the real server's JSON reader stops at
 * 128 levels (and refuses the whole request), and a recursive walk over a 20,000-level value
 * overflows the stack. So a row deeper than MAX_ROW_DEPTH is rejected with its line before
 * anything else reads it; this walk is iterative, so it cannot overflow itself.
 */

/** Levels of objects and arrays in a row; the batch envelope adds two more on the wire. */
export const MAX_ROW_DEPTH = 100;

/** True when `value` has objects or arrays nested more than `limit` levels deep. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  // Parallel stacks, and for-in rather than Object.values: this runs once per imported row.
  const objects: object[] = [value];
  const depths: number[] = [1];
  while (objects.length > 0) {
    const current = objects.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    for (const key in current) {
      const child = current[key];
      if (child !== null && typeof child === 'object') {
        objects.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
