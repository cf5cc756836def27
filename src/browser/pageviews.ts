/**
 * `$pageview` at init, and for single-page apps (capture_pageview: 'history_change') on every
 * client-side navigation to a new path.
 */
import { track } from './capture';
import { watchHistory } from './history';
import { forgetPageContext } from './page-context';
import type { Hogtail } from './hogtail';
import type { Runtime } from './runtime';

/** `client` captures the navigations: its methods report instead of throwing into the router. */
export function startPageviews(rt: Runtime, client: Hogtail): void {
  const pageviews = rt.config.capture_pageview ?? true;
  let lastPath = location.pathname;
  if (pageviews) track(rt, '$pageview');
  if (pageviews === 'history_change') {
    watchHistory(() => {
      forgetPageContext();
      if (location.pathname !== lastPath) {
        lastPath = location.pathname;
        client.capture('$pageview');
      }
    });
  }
}
