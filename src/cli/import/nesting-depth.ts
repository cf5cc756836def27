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
  const stack: Array<{ value: object; depth: number }> = [{ value, depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.depth > limit) return true;
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child as object, depth: next.depth + 1 });
    }
  }
  return false;
}
