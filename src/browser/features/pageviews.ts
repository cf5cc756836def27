/**
 * `$pageview` at init, and for single-page apps (capture_pageview: 'history_change') on every
 * client-side navigation to a new path; `$pageleave` (capture_pageleave) when the page goes away
 * and before each such navigation, carrying the URL that was left. A pageleave at pagehide is
 * captured before the unload beacon is built, so it goes out with it and stays stored for the
 * next page like any event.
 */
import { track } from '../capture/capture';
import { watchHistory } from './history';
import type { Hogtail } from '../hogtail';
import { pageleaveOption, pageviewOption } from '../api/options';
import { forgetPageContext } from '../capture/page-context';
import type { Runtime } from '../runtime';

/** `client` captures the navigations: its methods report instead of throwing into the router. */
export function startPageviews(rt: Runtime, client: Hogtail): void {
  const pageviews = pageviewOption(rt.config);
  let lastPath = location.pathname;
  let lastUrl = location.href;
  const pageview = () => (rt.pageViewId = client.capture('$pageview')?.uuid);
  const pageleave = () => pageleaveOption(rt.config) && client.capture('$pageleave', { $current_url: lastUrl, $pathname: lastPath });
  if (pageviews) rt.pageViewId = track(rt, '$pageview')?.uuid;
  rt.onLeave = pageleave;
  if (pageviews === 'history_change') {
    watchHistory(() => {
      forgetPageContext();
      if (location.pathname !== lastPath) {
        pageleave();
        lastPath = location.pathname;
        lastUrl = location.href;
        pageview();
      }
    });
  }
}
