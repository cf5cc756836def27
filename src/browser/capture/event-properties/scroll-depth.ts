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
import type { Properties } from '../../types';

export interface ScrollDepth {
  /** A new page: forget the depths of the last one and measure this one soon. */
  reset(): void;
  /** The scroll properties of the page so far, as `$prev_pageview_*` ({} before its first measurement). */
  properties(): Properties;
}

/** The depths, in the order of `[...NAMES, scrollable height, whole height]`, in pixels. */
const NAMES = ['last_scroll', 'max_scroll', 'last_content', 'max_content'];

/** @param rootSelector posthog-js's `scroll_root_selector`: a selector or a list, the first match wins. */
export function trackScroll(rootSelector: unknown): ScrollDepth {
  const selectors = rootSelector ? [rootSelector].flat() : [];
  let depths: number[] | undefined;
  let pending = false;

  const measure = () => {
    pending = false;
    const root = selectors.length
      ? selectors.map((selector) => document.querySelector(String(selector))).find(Boolean)
      : document.documentElement;
    const y = (selectors.length ? root?.scrollTop : scrollY || root?.scrollTop) || 0;
    const viewport = root?.clientHeight || 0;
    const height = root?.scrollHeight || 0;
    // Each deepest value is the largest seen on this page, the heights too (a page that grows).
    const [, maxY = 0, , maxContent = 0, maxScrollable = 0, maxHeight = 0] = depths ?? [];
    depths = [
      y,
      Math.max(y, maxY),
      y + viewport,
      Math.max(y + viewport, maxContent),
      Math.max(height - viewport, maxScrollable),
      Math.max(height, maxHeight),
    ];
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
      const props: Properties = {};
      const measured = depths;
      NAMES.forEach((name, i) => {
        if (!measured) return;
        // Rounded up, so 999.5 px of a 1,000 px page counts as all of it; a page that cannot scroll
        // is read to the end. Scroll offsets are shares of the scrollable height, content of the whole.
        const depth = Math.ceil(measured[i]!);
        const whole = Math.ceil(measured[4 + (i >> 1)]!);
        props['$prev_pageview_' + name] = depth;
        props['$prev_pageview_' + name + '_percentage'] = whole <= 1 ? 1 : Math.min(1, Math.max(0, depth / whole));
      });
      return props;
    },
  };
}
