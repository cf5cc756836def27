/**
 * What the client sees of this folder (index.ts builds it), apart so that runtime.ts can name it
 * without importing the code (no import cycle).
 */
import type { Properties } from '../types';

export interface EventProperties {
  /** The current page view's id (posthog-js's getPageViewId()). */
  pageViewId(): string | undefined;
  /**
   * What an event named `event` carries from here, as parts in rising precedence: the tab's
   * attribution, the session entry, then the page-view chain, `$window_id` and `$is_identified`.
   * `uuid` is the event's (a `$pageview` needs its own); `sessionId` the one it is sent with.
   */
  parts(event: unknown, uuid: string | undefined, now: number, sessionId: string): Properties[];
  /** The first-visit and session-entry person properties for `$set_once`, when `event` is to carry them. */
  setOnce(event: unknown): Properties | undefined;
}
