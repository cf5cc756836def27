/**
 * Timers that never keep a Node process alive on their own (docs/guarantees.md §5). Browsers return a number
 * from setTimeout, Node an object with unref(); this works with both without naming either.
 */
export type TimerHandle = ReturnType<typeof setTimeout>;

export function setBackgroundTimeout(fn: () => void, ms: number): TimerHandle {
  const handle = setTimeout(fn, ms);
  (handle as { unref?: () => void }).unref?.(); // a page's timers (numbers) have none
  return handle;
}
