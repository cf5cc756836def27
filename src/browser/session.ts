/**
 * The browser session as posthog-js exposes it: its id and a listener for new ones, properties
 * registered for the session only (kept in sessionStorage, so they last as long as the tab), and
 * posthog-js's readers of stored properties.
 */
import { attempt } from '../core/safe-json';
import { isObject } from '../core/special-events';
import type { Methods, Runtime } from './runtime';
import type { Properties } from './types';

export const sessionStorageKey = (base: string) => base + 's';

/** register_for_session's properties from an earlier page of this tab; {} when absent or not an object. */
export function readSessionProps(base: string): Properties {
  const saved: unknown = attempt(() => JSON.parse(sessionStorage.getItem(sessionStorageKey(base))!), 0);
  return isObject(saved) ? saved : {};
}

function saveSessionProps(rt: Runtime): void {
  attempt(() => sessionStorage.setItem(sessionStorageKey(rt.base), JSON.stringify(rt.sessionProps)), 0);
}

export const sessionMethods: Pick<Methods, 'get_session_id'> = {
  get_session_id: (rt) => rt.states.session(Date.now()),
};

/** posthog-js's other session and property readers (full build). */
export const sessionExtraMethods: Pick<
  Methods,
  'onSessionId' | 'register_for_session' | 'unregister_for_session' | 'getSessionProperty' | 'get_property' | 'getPageViewId'
> = {
  onSessionId(rt, listener) {
    const current = rt.states.session(Date.now()); // may start a session: told below, not twice
    rt.sessionListeners.add(listener);
    listener(current, null);
    return () => void rt.sessionListeners.delete(listener);
  },
  register_for_session(rt, properties) {
    Object.assign(rt.sessionProps, properties);
    saveSessionProps(rt);
  },
  unregister_for_session(rt, name) {
    delete rt.sessionProps[name];
    saveSessionProps(rt);
  },
  getSessionProperty: (rt, name) => rt.sessionProps[name],
  get_property(rt, name) {
    const state = rt.states.state;
    if (name === 'distinct_id' || name === '$device_id' || name === '$user_state') return state[name];
    return name === '$groups' ? { ...state.$groups } : state.props[name];
  },
  getPageViewId: (rt) => rt.visit.pageViewId(),
};
