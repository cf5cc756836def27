/**
 * posthog-js's event properties that describe the visit (issue 28: a site that switches keeps its
 * web analytics): where the visit came from (attribution.ts, campaign.ts), the visitor's first
 * page (initial-person.ts) and the session's (session-entry.ts), the tab (window-id.ts), and the
 * page-view chain with scroll depth (previous-page.ts, scroll-depth.ts). This file wires them to
 * the client; each is read or updated when its page, session or visitor changes, and an event
 * only picks up objects already built: what the page's events share is even serialised once
 * (core/event.ts, SharedProperties), so capture() stays cheap.
 *
 * The lite script tag leaves out `$window_id` and the page-view chain with its scroll depths (its
 * size budget; see docs/posthog-js-properties.md).
 */
import { shareProperties, type SharedProperties } from '../../../core/event';
import { LITE } from '../../build-flags';
import { cookieless, persistAllowed } from '../../state/consent-rules';
import { pageContext } from '../page-context';
import type { Runtime } from '../../runtime';
import { openStorage } from '../../state/storage';
import type { Properties } from '../../types';
import { createAttribution } from './attribution';
import { currentPage, pageProperties, paramsIn, type PageInfo } from './campaign';
import { initialProperties } from './initial-person';
import { markMetaIdsSent, refreshMetaIds, unsentMetaIds } from './meta-ids';
import { personalDataMask } from './personal-data';
import { createPageChain } from './previous-page';
import { trackScroll } from './scroll-depth';
import { sessionEntryProperties } from './session-entry';
import type { EventProperties } from './types';
import { createWindowId } from './window-id';

export type { EventProperties } from './types';

/** Starts tracking for the client `rt` (after its state store exists). */
export function startEventProperties(rt: Runtime): EventProperties {
  const { config_: config, states_: states, base_: base } = rt;
  // The tab's storage, unless nothing may be kept ('memory', or the consent modes for now).
  const tab = rt.store_ && openStorage('sessionStorage');
  const stored = () => (persistAllowed(rt) ? tab : undefined);
  const attribution = createAttribution(stored, base + 'a', config);
  const mask = personalDataMask(config, rt.warn_);
  // The page context with its URL masked, made once per page context (per task).
  let seenPage: Properties | undefined;
  let maskedPage: Properties = {};
  const pageNow = () => {
    const page = pageContext();
    if (!mask) return page;
    if (page !== seenPage) maskedPage = { ...(seenPage = page), $current_url: mask(page.$current_url as string) };
    return maskedPage;
  };
  const windowId = LITE ? undefined : createWindowId(stored, base + 'w');
  if (windowId) {
    const told = states.onNewSession_;
    states.onNewSession_ = (id) => {
      windowId.renew_();
      told?.(id);
    };
  }
  const chain = LITE ? undefined : createPageChain(config.disable_scroll_properties ? undefined : trackScroll(config.scroll_root_selector));
  const keepsFirstPage = config.save_campaign_params !== false || config.save_referrer !== false;
  // The session entry's event properties, built once per entry.
  let entry: [PageInfo | undefined, Properties] = [undefined, {}];
  let setOnceSent = false;
  // Meta's ids are read again when the URL or the identity changes (meta-ids.ts); not by the lite tag.
  const readsMetaIds = !LITE && config.save_campaign_params !== false;
  let metaSeen: [unknown, unknown] = [undefined, undefined];
  // The page's properties serialised once, until one of the objects they come from changes.
  let shared: SharedProperties;
  let sharedFrom: Properties[] = [];
  const share = (parts: Properties[]) => {
    if (parts.some((part, i) => part !== sharedFrom[i])) shared = shareProperties(Object.assign({}, ...(sharedFrom = parts)));
    return shared;
  };

  return {
    pageViewId_: () => chain?.id(),
    windowId_: () => windowId?.id(),
    pageUrl_: () => pageNow().$current_url as string,
    parts_(event, uuid, now, sessionId) {
      const state = states.state_;
      const visit = chain?.properties(event, uuid, now, sessionId) ?? {};
      if (event === '$pageview') visit.title = document.title;
      visit.$is_identified = state.$user_state === 'identified';
      const page = pageNow();
      const campaign = attribution(page.$current_url as string);
      // Cookieless: nothing that would tell this visitor's sessions and tabs apart.
      if (cookieless(rt)) return { shared: share([page, campaign]), visit };
      if (!state.ipi && !state.ipl && keepsFirstPage) {
        state.ipi = currentPage(mask);
        states.save_();
      }
      if (state.se?.[0] !== sessionId) {
        state.se = [sessionId, currentPage(mask)];
        states.save_();
      }
      if (entry[0] !== state.se[1]) entry = [state.se[1], sessionEntryProperties(state.se[1])];
      const url = page.$current_url as string;
      if (readsMetaIds && (event === '$identify' || metaSeen[0] !== url || metaSeen[1] !== state)) {
        metaSeen = [url, state];
        if (refreshMetaIds(state, paramsIn(url, ['fbclid']).fbclid, now)) states.save_();
      }
      if (windowId) visit.$window_id = windowId.id();
      return { shared: share([page, campaign, entry[1]]), visit };
    },
    personSet_: LITE ? undefined : (callerSets) => unsentMetaIds(states.state_, callerSets),
    setSent_: LITE
      ? undefined
      : (json) => {
          markMetaIdsSent(states.state_, json);
          states.save_();
        },
    setOnce_(event) {
      // posthog-js sends them with the first event of a page that processes the person, and with
      // every $identify (which may reach the server before earlier events); a $groupidentify
      // carries them without counting as sent (the server ignores a person's properties there).
      if (setOnceSent && event !== '$identify') return undefined;
      if (event !== '$groupidentify') setOnceSent = true;
      const { ipi, ipl, se } = states.state_;
      return { ...ipl, ...(ipi && initialProperties(ipi)), ...(se && pageProperties(se[1])) };
    },
  };
}
