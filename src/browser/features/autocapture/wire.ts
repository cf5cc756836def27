/**
 * Autocapture as a feature of the browser client: started once init() is done unless
 * `autocapture: false`, capturing through the client's capture() (queue, opt-out and consent
 * apply), paused while the server's `autocapture_opt_out` (heard through onRemoteConfig and kept in
 * the persisted state as `aco`, so the next page knows it before the flags answer) says so.
 */
import { HogtailError } from '../../../core/errors';
import { textOf } from '../../../core/text-of';
import { LITE } from '../../build-flags';
import type { CoreSlice } from '../../runtime';
import type { StateSlice } from '../../state/slice';
import type { Feature } from '../feature';
import type { StartAutocapture } from './index';

/** How an entry point gets autocapture: lazily (npm), inline (script tag), or not at all (lite). */
export type AutocaptureLoader = () => StartAutocapture | Promise<StartAutocapture>;

type Needs = Pick<CoreSlice, 'config_' | 'client' | 'report_'> & Pick<StateSlice, 'states_'>;

function wireAutocapture(rt: Needs, load: AutocaptureLoader | undefined): void {
  const { config_: config, client } = rt;
  if (config.autocapture === false) return;
  // A loop, not .map: this runs in a page's event handler, and a page may have patched Array.prototype.map.
  const warn = (...parts: unknown[]) => {
    let message = '';
    for (const part of parts) message += textOf(part);
    rt.report_(new HogtailError(message));
  };
  // LITE: the lite script tag never has a loader; saying so lets its minifier drop the rest.
  if (LITE || !load) {
    if (config.autocapture) warn('autocapture is not in this build (the lite script tag); use hogtail.iife.js for it');
    return;
  }
  Promise.resolve()
    .then(load)
    .then((start) => start({ window, initOptions: config, capture: client.capture, isEnabled: () => !rt.states_.state_.aco, warn }))
    .catch((error: unknown) => warn('autocapture did not start: ', error));
}

/**
 * `load`: how this build gets autocapture's code (none: a build without it, which warns when
 * asked). The lite script tag has neither its options nor the server's switch to keep.
 */
export const autocaptureFeature = (load?: AutocaptureLoader): Feature => ({
  name: 'autocapture',
  options_: LITE ? undefined : ['rageclick', 'mask_all_text', 'mask_all_element_attributes'],
  setup: (rt: Needs) => ({
    onRemoteConfig: LITE
      ? undefined
      : ({ autocapture_opt_out: off }) => {
          if (typeof off !== 'boolean') return;
          rt.states_.state_.aco = off;
          rt.states_.save_();
        },
    onLoaded: () => wireAutocapture(rt, load),
  }),
});
