/**
 * What the consent choice means under the options (see consent.ts), read by capture and storage.
 */
import { LITE } from '../build-flags';
import type { Runtime } from '../runtime';

export const COOKIELESS_ID = '$posthog_cookieless';

const doNotTrack = () => [navigator.doNotTrack, (window as { doNotTrack?: string }).doNotTrack].some((v) => v === '1' || v === 'yes');

/** Events carry no persistent identifier now. */
export function cookieless(rt: Runtime): boolean {
  if (LITE) return false; // the lite build has no cookieless mode (it warns about the option)
  const mode = rt.config_.cookieless_mode;
  return mode === 'always' || (mode === 'on_reject' && rt.consent_ === 'denied');
}

export function optedOut(rt: Runtime): boolean {
  const { config_: config, consent_: consent } = rt;
  if (cookieless(rt)) return false;
  if (consent !== 'pending') return consent === 'denied';
  return (
    !!config.opt_out_capturing_by_default || (!LITE && config.cookieless_mode === 'on_reject') || (!!config.respect_dnt && doNotTrack())
  );
}

/** Whether identity and events may be written to storage now. */
export function persistAllowed(rt: Runtime): boolean {
  // The lite build has neither option that stops storing (it warns about both), so nothing it
  // stores is ever forgotten on their account either.
  if (LITE) return true;
  const { config_: config } = rt;
  if (cookieless(rt) || (config.cookieless_mode === 'on_reject' && rt.consent_ !== 'granted')) return false;
  return !(config.opt_out_persistence_by_default && optedOut(rt));
}
