/**
 * `$pageview` once init() is done (after the app's `loaded`, so what it registers is on the first
 * one), and for single-page apps (capture_pageview: 'history_change') on every client-side
 * navigation to a new path, after the features heard of it (onNavigate: page leave captures the
 * page that was left first).
 */
import { track } from '../capture/capture';
import { forgetPageContext } from '../capture/page-context';
import { pageviewOption } from '../api/options';
import type { Runtime } from '../runtime';
import type { Feature } from './feature';
import { here, watchHistory } from './history';
import { runHooks } from './hooks';

export function pageviewsFeature(): Feature {
  /** The uuid of the last `$pageview` (getPageViewId). */
  let viewId: string | undefined;
  return {
    name: 'pageviews',
    methods_: { getPageViewId: () => viewId },
    setup(rt: Runtime) {
      const pageviews = pageviewOption(rt.config_);
      return {
        onLoaded() {
          if (pageviews) viewId = track(rt, '$pageview')?.uuid;
          if (pageviews !== 'history_change') return;
          let last = here();
          watchHistory(() => {
            forgetPageContext();
            if (location.pathname === last.path) return;
            runHooks(rt, 'onNavigate', last);
            last = here();
            // Through the client: its methods report instead of throwing into the router.
            viewId = rt.client.capture('$pageview')?.uuid;
          });
        },
      };
    },
  };
}
