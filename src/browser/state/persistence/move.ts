/**
 * set_config() of a persistence option after init (posthog-js moves its record the same way): the
 * state in memory is the truth, so it is removed from where it was kept and written where the
 * options now say, identity included. The consent flow this is for starts with `persistence:
 * 'memory'` and switches to storage once the visitor agrees; without the move, the next page
 * would start a new visitor. Switching to 'memory' removes what was stored, cookies included.
 *
 * What moves is the state (identity, super properties, groups, session, flags). The durable event
 * queue keeps the storage the page started with until the next page (events captured meanwhile in
 * a page started in memory leave by the batch or the unload beacon, as before).
 */
import type { Runtime } from '../../runtime';
import { gateBacking } from '../consent-gate';
import { persistAllowed } from '../consent-rules';
import type { StateBacking } from './backing';
import { openStateBacking } from './index';

/** The options that say where the state is kept. */
export const PERSISTENCE_OPTIONS = [
  'persistence',
  'disable_persistence',
  'persistence_name',
  'cross_subdomain_cookie',
  'secure_cookie',
  'cookie_expiration',
  'cookie_persisted_properties',
];

/** Moves the state to where `rt.config_` (already changed) says. */
export function movePersistence(rt: Runtime): void {
  const config = rt.config_;
  let backing: StateBacking = openStateBacking(rt.endpoint_.apiKey, rt.base_ + 'p', config, (message) => rt.warn_('persistence', message));
  // Behind the same gate as at init (start.ts) where a consent mode may forbid storing.
  if (config.cookieless_mode || config.opt_out_persistence_by_default) backing = gateBacking(backing, () => persistAllowed(rt));
  rt.states_.move_(backing);
}
