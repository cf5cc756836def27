/**
 * Opting out and in. The choice is persisted with the identity, so it holds on every page of the
 * origin; while opted out nothing is captured (each refused event is counted as `opted_out`).
 */
import { track } from './capture';
import type { Methods, Runtime } from './runtime';

function setOptOut(rt: Runtime, optout: boolean): void {
  rt.states.state.optout = optout;
  rt.states.save();
}

export const consentMethods: Pick<Methods, 'opt_out_capturing' | 'opt_in_capturing' | 'has_opted_out_capturing'> = {
  opt_out_capturing: (rt) => setOptOut(rt, true),
  opt_in_capturing(rt) {
    setOptOut(rt, false);
    track(rt, '$opt_in');
  },
  has_opted_out_capturing: (rt) => rt.states.state.optout === true,
};
