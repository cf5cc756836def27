/**
 * posthog-js's `bootstrap.sessionID`: a server that started the session (and rendered the page with
 * its id) hands it to the page, so the page's events join that session instead of starting one of
 * their own. As posthog-js does, it replaces the stored session at every init that carries it, keeps
 * it alive from now, and dates its start from the id itself (a UUIDv7 holds its creation time), so
 * the 24-hour limit counts from when the server started it.
 */
import type { StateStore } from './state';

/** posthog-js's tolerance for a server clock ahead of the browser's. */
const CLOCK_SKEW_MS = 60_000;

/**
 * Makes `id` the session at `now`.
 * @returns undefined when done, else what was wrong with `id` (the session is then left alone).
 */
export function bootstrapSession(states: StateStore, id: unknown, now: number): string | undefined {
  const hex = String(id).replace(/-/g, '');
  const start = parseInt(hex.slice(0, 12), 16);
  if (!/^[0-9a-f]{12}7[0-9a-f]{19}$/i.test(hex)) return 'is not a UUIDv7';
  if (start > now + CLOCK_SKEW_MS) return 'is in the future';
  states.state_.sid = [String(id), now, start];
  states.save_();
}
