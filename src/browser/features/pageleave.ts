/**
 * `$pageleave` (capture_pageleave; on with page views unless set) carrying the URL that was left:
 * when the page goes away (onUnload runs before the unload beacon is built, so the event goes out
 * with it and stays stored for the next page like any event), and before each client-side
 * navigation of a single-page app (onNavigate).
 */
import { pageleaveOption } from '../api/options';
import type { CoreSlice } from '../runtime';
import type { Feature } from './feature';
import type { PageLocation } from './hooks';
import { here } from './history';

export const pageleaveFeature = (): Feature => ({
  name: 'pageleave',
  setup(rt: Pick<CoreSlice, 'config_' | 'client'>) {
    let last = here();
    const leave = (page: PageLocation) => pageleaveOption(rt.config_) && rt.client.capture('$pageleave', { $current_url: page.url, $pathname: page.path });
    return {
      onLoaded: () => void (last = here()),
      onNavigate(from) {
        leave(from);
        last = here();
      },
      onUnload: () => void leave(last),
    };
  },
});
