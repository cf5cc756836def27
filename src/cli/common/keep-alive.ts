/**
 * Holds a CLI process open until a command knows its outcome. The Node client's timers (retry
 * backoff, flush interval) are unref'd so that they never keep a host app alive; a command that
 * waits on them would otherwise see Node exit with code 0 in the middle of a retry, its events
 * undelivered and nothing printed. The returned function lets go.
 */
// The longest delay setInterval accepts; the callback does nothing, the handle is what matters.
const LONGEST_DELAY_MS = 2 ** 31 - 1;

export function holdProcessOpen(): () => void {
  const handle = setInterval(() => {}, LONGEST_DELAY_MS);
  return () => clearInterval(handle);
}
