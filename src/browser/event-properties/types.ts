/**
 * What the client sees of this folder (index.ts builds it), apart so that runtime.ts can name it
 * without importing the code (no import cycle).
 */
import type { SharedProperties } from '../../core/event';
import type { Properties } from '../types';

export interface EventProperties {
  /** The current page view's id (posthog-js's getPageViewId()). */
  pageViewId(): string | undefined;
  /**
   * What an event named `event` carries from here: `shared`, what the events of the page (and
   * session) have in common, serialised once for all of them (page context, the tab's attribution,
   * the session entry); and `visit`, what is the event's own (the page-view chain, `title`,
   * `$window_id`, `$is_identified`). `uuid` is the event's (a `$pageview` needs its own);
   * `sessionId` the one it is sent with.
   */
  parts(event: unknown, uuid: string | undefined, now: number, sessionId: string): { shared: SharedProperties; visit: Properties };
  /** The first-visit and session-entry person properties for `$set_once`, when `event` is to carry them. */
  setOnce(event: unknown): Properties | undefined;
}
