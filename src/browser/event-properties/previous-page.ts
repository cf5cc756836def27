/**
 * posthog-js's page-view chain: every event names the page view it happened on (`$pageview_id`,
 * the `$pageview`'s uuid), and each `$pageview` and `$pageleave` describes the page view before
 * it (`$prev_pageview_id`, `_pathname`, `_duration` in seconds, and how far it was scrolled).
 * PostHog reads time on page, bounce rate and scroll depth from these: the data for a page view
 * arrives on the event after it, found by its `$prev_pageview_id`.
 *
 * Kept in memory, as posthog-js keeps it: a new page load starts a new chain (the `$pageleave`
 * sent as the old page went carries its end). A new session starts one too, so a page view is
 * never linked across sessions.
 */
import type { Properties } from '../types';
import type { ScrollDepth } from './scroll-depth';

interface PageView {
  id: string;
  pathname: string;
  at: number;
  sessionId: string;
}

export interface PageChain {
  /** The current page view's id (the last `$pageview`'s uuid). */
  id(): string | undefined;
  /** Properties of an event named `event` with this uuid at `now` in the session `sessionId`. */
  properties(event: unknown, uuid: string | undefined, now: number, sessionId: string): Properties;
}

/** `scroll`: the scroll tracker, or none when posthog-js's `disable_scroll_properties` is set. */
export function createPageChain(scroll: ScrollDepth | undefined): PageChain {
  let current: PageView | undefined;

  /** The page view being left, described for the event that ends it. */
  const ending = (id: string | undefined, now: number): Properties =>
    current
      ? {
          $pageview_id: id,
          $prev_pageview_id: current.id,
          ...scroll?.properties(),
          $prev_pageview_pathname: current.pathname || undefined,
          $prev_pageview_duration: (now - current.at) / 1000,
        }
      : { $pageview_id: id };

  return {
    id: () => current?.id,
    properties(event, uuid, now, sessionId) {
      if (current && current.sessionId !== sessionId) current = undefined;
      if (event === '$pageleave') return ending(current?.id, now);
      if (event !== '$pageview' || !uuid) return { $pageview_id: current?.id };
      const props = ending(uuid, now);
      current = { id: uuid, pathname: location.pathname, at: now, sessionId };
      scroll?.reset();
      return props;
    },
  };
}
