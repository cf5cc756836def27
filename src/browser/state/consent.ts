/**
 * Consent, as posthog-js has it. The user's choice ('granted', 'denied', or 'pending' until they
 * choose) is stored under its own key, apart from the identity, so it holds on every page even in
 * the modes that store nothing else. What the choice means depends on the options:
 * - pending counts as opted out with opt_out_capturing_by_default, with respect_dnt when the
 *   browser sends Do Not Track, and with cookieless_mode 'on_reject' (nothing until the user chooses);
 * - cookieless_mode 'always', or 'on_reject' after a refusal: events are captured with no
 *   persistent identifier (distinct id `$posthog_cookieless`), and nothing is stored;
 * - opt_out_persistence_by_default: nothing is stored while opted out.
 * Refused events are counted as `opted_out`, and so are the events not yet sent when the user opts
 * out: opting out empties the queue (and its storage) of them.
 */
import { track } from '../capture/capture';
import { optedOut, persistAllowed } from './consent-rules';
import { removeKey, writeKey } from './storage';
import type { ConsentStatus, Methods, Runtime } from '../runtime';

function choose(rt: Runtime, consent: ConsentStatus): void {
  rt.consent_ = consent;
  const key = rt.base_ + 'c';
  if (consent === 'pending') removeKey(rt.store_, key);
  else writeKey(rt.store_, key, consent);
  if (persistAllowed(rt))
    rt.states_.save_(); // the identity kept in memory meanwhile is written now
  else rt.states_.forget_(); // and forgotten when storing stops, the identity cookie included
}

export const consentMethods: Pick<Methods, 'opt_out_capturing' | 'opt_in_capturing' | 'has_opted_out_capturing'> = {
  opt_out_capturing(rt) {
    choose(rt, 'denied');
    // What was captured before and is not sent yet (the host was down, or the batch not due) goes
    // too, from the queue and from storage: nothing leaves the page after the user said no.
    rt.queue_.discard('opted_out', 'opted out before they were sent');
  },
  opt_in_capturing(rt) {
    choose(rt, 'granted');
    track(rt, '$opt_in');
  },
  has_opted_out_capturing: optedOut,
};

/** posthog-js's other consent methods (full build). */
export const consentExtraMethods: Pick<
  Methods,
  'has_opted_in_capturing' | 'get_explicit_consent_status' | 'clear_opt_in_out_capturing' | 'is_capturing'
> = {
  has_opted_in_capturing: (rt) => !optedOut(rt),
  get_explicit_consent_status: (rt) => rt.consent_,
  clear_opt_in_out_capturing: (rt) => choose(rt, 'pending'),
  is_capturing: (rt) => !optedOut(rt),
};
