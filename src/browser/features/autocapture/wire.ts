/**
 * The browser client's side of autocapture, here so the client needs two lines for it: started
 * after init() unless `autocapture: false`, capturing through the client's capture() (queue,
 * opt-out and consent apply), paused while the server's `autocapture_opt_out` (kept in the persisted
 * state as `aco`, so the next page knows it before the flags answer) says so.
 */
import { HogtailError } from '../../../core/errors';
import { LITE } from '../../build-flags';
import type { Hogtail } from '../../hogtail';
import type { Runtime } from '../../runtime';
import type { StartAutocapture } from './index';
import { textOf } from '../../../core/text-of';

/** How an entry point gets autocapture: lazily (npm), inline (script tag), or not at all (lite). */
export type AutocaptureLoader = () => StartAutocapture | Promise<StartAutocapture>;

export function wireAutocapture(rt: Runtime, client: Hogtail, load: AutocaptureLoader | undefined): void {
  const { config } = rt;
  if (config.autocapture === false) return;
  // A loop, not .map: this runs in a page's event handler, and a page may have patched Array.prototype.map.
  const warn = (...parts: unknown[]) => {
    let message = '';
    for (const part of parts) message += textOf(part);
    rt.report(new HogtailError(message));
  };
  // LITE: the lite script tag never has a loader; saying so lets its minifier drop the rest.
  if (LITE || !load) {
    if (config.autocapture) warn('autocapture is not in this build (the lite script tag); use hogtail.iife.js for it');
    return;
  }
  Promise.resolve()
    .then(load)
    .then((start) => start({ window, initOptions: config, capture: client.capture, isEnabled: () => !rt.states.state.aco, warn }))
    .catch((error: unknown) => warn('autocapture did not start: ', error));
}
