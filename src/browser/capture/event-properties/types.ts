/**
 * What the client sees of this folder (index.ts builds it), apart so that runtime.ts can name it
 * without importing the code (no import cycle).
 */
import type { SharedProperties } from '../../../core/event';
import type { Properties } from '../../types';

export interface EventProperties {
  /** The current page view's id (posthog-js's getPageViewId()). */
  pageViewId_(): string | undefined;
  /**
   * What an event named `event` carries from here: `shared`, what the events of the page (and
   * session) have in common, serialised once for all of them (page context, the tab's attribution,
   * the session entry); and `visit`, what is the event's own (the page-view chain, `title`,
   * `$window_id`, `$is_identified`). `uuid` is the event's (a `$pageview` needs its own);
   * `sessionId` the one it is sent with.
   */
  parts_(event: unknown, uuid: string | undefined, now: number, sessionId: string): { shared: SharedProperties; visit: Properties };
  /** Person properties still to `$set` (Meta's ids; the lite tag has none), but those the caller sets in one of `callerSets`. */
  personSet_?: (callerSets: unknown[]) => Properties | undefined;
  /** An event that carried `personSet_`'s properties was queued as `json`: they are sent (the queue delivers it). */
  setSent_?: (json: string) => void;
  /** The first-visit and session-entry person properties for `$set_once`, when `event` is to carry them. */
  setOnce_(event: unknown): Properties | undefined;
  /** The page's URL as events carry it (personal data masked when the options ask), for the extensions. */
  pageUrl_(): string;
  /** The tab's `$window_id` (none in the lite build), for what is sent apart from events (session replay). */
  windowId_(): string | undefined;
}

/** The visit properties' slice of the runtime (runtime.ts). */
export interface VisitSlice {
  /** posthog-js's visit properties: attribution, first page, session entry, page-view chain. */
  readonly visit_: EventProperties;
}
