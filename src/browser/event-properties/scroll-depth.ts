/**
 * How far the visitor scrolled the current page, for posthog-js's `$prev_pageview_*_scroll` and
 * `_content` properties (PostHog's scroll-depth reports): the last and the deepest scroll offset,
 * and the last and the deepest bottom edge of what was on screen ("content"), each also as a
 * fraction of the page. Measured on the document's scrolling element, or on the first element
 * `scroll_root_selector` names (for apps that scroll a container instead of the page), as
 * posthog-js measures.
 *
 * A scroll only schedules a measurement for the next animation frame, so a burst of scroll events
 * costs one layout read per frame at most; a page change measures once soon after, and leaving the
 * page takes a measurement still pending. Listeners are passive and capture scrolls of any element
 * (the root may be a container).
 */
import type { Properties } from '../types';

/** Depths so far, in pixels: scroll offset and viewport bottom, last and deepest, and the largest heights seen. */
interface Depths {
  lastY: number;
  maxY: number;
  maxHeight: number;
  lastContent: number;
  maxContent: number;
  maxContentHeight: number;
}

export interface ScrollDepth {
  /** A new page: forget the depths of the last one and measure this one soon. */
  reset(): void;
  /** The scroll properties of the page so far, as `$prev_pageview_*` ({} before its first measurement). */
  properties(): Properties;
}

/** @param rootSelector posthog-js's `scroll_root_selector`: a selector or a list, the first match wins. */
export function trackScroll(rootSelector: unknown): ScrollDepth {
  const selectors = rootSelector ? [rootSelector].flat() : [];
  let depths: Depths | undefined;
  let pending = false;

  const root = (): Element | null | undefined =>
    selectors.length ? selectors.map((selector) => document.querySelector(String(selector))).find(Boolean) : document.documentElement;

  const measure = () => {
    pending = false;
    const element = root();
    const y = (selectors.length ? element?.scrollTop : scrollY || element?.scrollTop) || 0;
    const viewport = element?.clientHeight || 0;
    const height = element?.scrollHeight || 0;
    const last = depths;
    depths = {
      lastY: Math.ceil(y),
      maxY: Math.max(y, last?.maxY ?? 0),
      maxHeight: Math.max(height - viewport, last?.maxHeight ?? 0, 0),
      lastContent: y + viewport,
      maxContent: Math.max(y + viewport, last?.maxContent ?? 0),
      maxContentHeight: Math.max(height, last?.maxContentHeight ?? 0),
    };
  };
  const soon = () => {
    if (!pending) {
      pending = true;
      requestAnimationFrame(measure);
    }
  };
  for (const type of ['scroll', 'scrollend', 'resize']) addEventListener(type, soon, { capture: true, passive: true });

  return {
    reset() {
      depths = undefined;
      // A timer rather than a frame: a page opened in the background measures too.
      setTimeout(measure, 0);
    },
    properties() {
      if (pending) measure();
      if (!depths) return {};
      const { lastY, maxY, maxHeight, lastContent, maxContent, maxContentHeight } = depths;
      // Rounded up, so 999.5 px of a 1,000 px page counts as all of it; a page that cannot scroll is read to the end.
      const share = (part: number, whole: number) => (Math.ceil(whole) <= 1 ? 1 : Math.min(1, Math.max(0, Math.ceil(part) / Math.ceil(whole))));
      return {
        $prev_pageview_last_scroll: Math.ceil(lastY),
        $prev_pageview_last_scroll_percentage: share(lastY, maxHeight),
        $prev_pageview_max_scroll: Math.ceil(maxY),
        $prev_pageview_max_scroll_percentage: share(maxY, maxHeight),
        $prev_pageview_last_content: Math.ceil(lastContent),
        $prev_pageview_last_content_percentage: share(lastContent, maxContentHeight),
        $prev_pageview_max_content: Math.ceil(maxContent),
        $prev_pageview_max_content_percentage: share(maxContent, maxContentHeight),
      };
    },
  };
}
