/**
 * The browser session as posthog-js exposes it: its id and a listener for new ones, properties
 * registered for the session only (kept in sessionStorage, so they last as long as the tab), and
 * posthog-js's readers of stored properties.
 */
import { attempt } from '../../core/safe-json';
import { isObject } from '../../core/special-events';
import type { Methods, Runtime } from '../runtime';
import type { Properties } from '../types';

export const sessionStorageKey = (base: string) => base + 's';

/** register_for_session's properties from an earlier page of this tab; {} when absent or not an object. */
export function readSessionProps(base: string): Properties {
  const saved: unknown = attempt(() => JSON.parse(sessionStorage.getItem(sessionStorageKey(base))!), 0);
  return isObject(saved) ? saved : {};
}

function saveSessionProps(rt: Runtime): void {
  attempt(() => sessionStorage.setItem(sessionStorageKey(rt.base_), JSON.stringify(rt.sessionProps_)), 0);
}

export const sessionMethods: Pick<Methods, 'get_session_id'> = {
  get_session_id: (rt) => rt.states_.session_(Date.now()),
};

/** posthog-js's other session and property readers (full build). */
export const sessionExtraMethods: Pick<
  Methods,
  'onSessionId' | 'register_for_session' | 'unregister_for_session' | 'getSessionProperty' | 'get_property' | 'getPageViewId'
> = {
  onSessionId(rt, listener) {
    const current = rt.states_.session_(Date.now()); // may start a session: told below, not twice
    rt.sessionListeners_.add(listener);
    listener(current, rt.visit_.windowId_() ?? null);
    return () => void rt.sessionListeners_.delete(listener);
  },
  register_for_session(rt, properties) {
    Object.assign(rt.sessionProps_, properties);
    saveSessionProps(rt);
  },
  unregister_for_session(rt, name) {
    delete rt.sessionProps_[name];
    saveSessionProps(rt);
  },
  getSessionProperty: (rt, name) => rt.sessionProps_[name],
  get_property(rt, name) {
    const state = rt.states_.state_;
    if (name === 'distinct_id' || name === '$device_id' || name === '$user_state') return state[name];
    return name === '$groups' ? { ...state.$groups } : state.props[name];
  },
  getPageViewId: (rt) => rt.visit_.pageViewId_(),
};
