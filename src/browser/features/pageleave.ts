/**
 * `$pageleave` (capture_pageleave; on with page views unless set) once, when the page goes away,
 * naming the page being left (its page context). onUnload runs before the unload beacon is built,
 * so the event goes out with it and stays stored for the next page like any event. A single-page
 * app's navigation sends none (pageviews.ts).
 */
import { pageleaveOption } from '../api/options';
import type { CoreSlice } from '../runtime';
import type { Feature } from './feature';

export const pageleaveFeature = (): Feature => ({
  name: 'pageleave',
  setup: (rt: Pick<CoreSlice, 'config_' | 'client'>) => ({
    onUnload: () => void (pageleaveOption(rt.config_) && rt.client.capture('$pageleave')),
  }),
});
