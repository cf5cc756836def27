/**
 * Page views in posthog-js's sequence. `$pageview` once init() is done (after the app's `loaded`,
 * so what it registers is on the first one), and for single-page apps (capture_pageview:
 * 'history_change') on every client-side navigation to a new path: at the end of the task that
 * changed the URL, so the router has set the new page's title by then (at once for back and
 * forward, and before the URL changes again). A navigation sends no `$pageleave`: the next
 * `$pageview` carries the end of the page left (`$prev_pageview_*`,
 * capture/event-properties/previous-page.ts). At pagehide (onUnload) a page view still pending
 * goes first, before page leave's `$pageleave` (pageleave.ts, after this in the feature list).
 */
import { attempt } from '../../core/safe-json';
import { pageviewOption } from '../api/options';
import { track } from '../capture/capture';
import { forgetPageContext } from '../capture/page-context';
import type { Runtime } from '../runtime';
import type { Feature } from './feature';
import { watchHistory } from './history';

export function pageviewsFeature(): Feature {
  let pending: (() => void) | undefined;
  const flush = () => {
    const capture = pending;
    pending = undefined;
    capture?.();
  };
  return {
    name: 'pageviews',
    setup(rt: Runtime) {
      const pageviews = pageviewOption(rt.config_);
      return {
        onLoaded() {
          let lastPath = location.pathname;
          if (pageviews) track(rt, '$pageview');
          if (pageviews !== 'history_change') return;
          watchHistory(
            (type) => {
              forgetPageContext();
              if (location.pathname === lastPath) return;
              lastPath = location.pathname;
              // Through the client: its methods report instead of throwing into the router.
              pending = () => rt.client.capture('$pageview', { navigation_type: type });
              if (type === 'popstate') flush();
              else queueMicrotask(flush);
            },
            // A second navigation in the same task: the first one's page view goes first, with its own URL.
            (url) => url != null && attempt(() => new URL(String(url), location.href).href !== location.href, false) && flush(),
          );
        },
        onUnload: flush,
      };
    },
  };
}
