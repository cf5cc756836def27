/**
 * Page views and page leaves in posthog-js's sequence. `$pageview` at init, and for single-page
 * apps (capture_pageview: 'history_change') on every client-side navigation to a new path: at the
 * end of the task that changed the URL, so the router has set the new page's title by then (at
 * once for back and forward, and before the URL changes again). `$pageleave` (capture_pageleave)
 * once, when the page goes away, naming the page being left; a navigation sends none, since the
 * next `$pageview` carries the end of the page left (`$prev_pageview_*`,
 * event-properties/previous-page.ts). The pageleave at pagehide is captured before the unload
 * beacon is built, so it goes out with it and stays stored for the next page like any event.
 */
import { attempt } from '../core/safe-json';
import { track } from './capture';
import { watchHistory } from './history';
import type { Hogtail } from './hogtail';
import { pageleaveOption, pageviewOption } from './options';
import { forgetPageContext } from './page-context';
import type { Runtime } from './runtime';

/** `client` captures the navigations: its methods report instead of throwing into the router. */
export function startPageviews(rt: Runtime, client: Hogtail): void {
  const pageviews = pageviewOption(rt.config);
  let lastPath = location.pathname;
  let pending: (() => void) | undefined;
  const flush = () => {
    const capture = pending;
    pending = undefined;
    capture?.();
  };
  if (pageviews) track(rt, '$pageview');
  rt.onLeave = () => {
    flush();
    if (pageleaveOption(rt.config)) client.capture('$pageleave');
  };
  if (pageviews !== 'history_change') return;
  watchHistory(
    (type) => {
      forgetPageContext();
      if (location.pathname === lastPath) return;
      lastPath = location.pathname;
      pending = () => client.capture('$pageview', { navigation_type: type });
      if (type === 'popstate') flush();
      else queueMicrotask(flush);
    },
    // A second navigation in the same task: the first one's page view goes first, with its own URL.
    (url) => url != null && attempt(() => new URL(String(url), location.href).href !== location.href, false) && flush(),
  );
}
