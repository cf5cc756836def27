/**
 * Who the events are about: identify, alias, groups, reset, super properties and person
 * properties. Changes that flags depend on (identity, groups) ask for fresh flags.
 */
import { aliasEvent, asText, groupIdentifyEvent, identifyEvent, isText } from '../core/special-events';
import { noPersons, refuse, special, track } from './capture';
import { reloadFlags } from './flags';
import type { Properties } from './types';
import type { Methods, Runtime } from './runtime';
import { freshState } from './state';

const setPerson = (rt: Runtime, $set: unknown, $set_once?: unknown) => track(rt, '$set', { $set: $set ?? {}, $set_once: $set_once ?? {} });

/** Person processing on from now (identified_only mode). */
function personOn(rt: Runtime): void {
  rt.states.state.$epp = true;
  rt.states.save();
}

export const identityMethods: Pick<
  Methods,
  | 'identify'
  | 'alias'
  | 'group'
  | 'reset'
  | 'register'
  | 'register_once'
  | 'unregister'
  | 'get_distinct_id'
  | 'setPersonProperties'
> = {
  identify(rt, distinctId: unknown, $set?: unknown, $set_once?: unknown) {
    if (noPersons(rt, 'identify')) return;
    const id = asText(distinctId);
    if (!isText(id)) return refuse(rt, `identify() needs a distinct id; got ${typeof id}`);
    const state = rt.states.state;
    const previous = state.distinct_id;
    const anonymous = state.$user_state !== 'identified';
    const event = identifyEvent($set, $set_once, { $anon_distinct_id: previous });
    if ('error' in event) return refuse(rt, event.error);
    state.distinct_id = id;
    state.$user_state = 'identified';
    state.props.$user_id = id; // a super property from now on, as posthog-js registers it
    personOn(rt);
    if (id !== previous && anonymous) track(rt, event.event, event.properties);
    else if ($set || $set_once) setPerson(rt, $set, $set_once);
    if (id !== previous) reloadFlags(rt.flagState);
  },

  alias(rt, alias: unknown, original?: string) {
    if (noPersons(rt, 'alias')) return;
    personOn(rt);
    special(rt, aliasEvent(alias), original ?? rt.states.state.distinct_id);
  },

  group(rt, groupType: string, groupKey: unknown, properties?: unknown) {
    if (noPersons(rt, 'group')) return;
    const event = groupIdentifyEvent(groupType, groupKey, properties);
    if ('error' in event) return refuse(rt, event.error);
    const state = rt.states.state;
    const key = String(groupKey);
    // As posthog-js: a group new to this user is announced, with or without properties.
    const isNew = state.$groups[groupType] !== key;
    state.$groups = { ...state.$groups, [groupType]: key };
    personOn(rt);
    if (isNew || properties) track(rt, event.event, event.properties);
    reloadFlags(rt.flagState);
  },

  reset(rt, resetDeviceId?: boolean) {
    const { states } = rt;
    const state = states.state;
    states.replace(freshState(resetDeviceId ? undefined : state.$device_id, state.optout));
    reloadFlags(rt.flagState);
  },

  register(rt, properties: Properties) {
    Object.assign(rt.states.state.props, properties);
    rt.states.save();
  },

  register_once(rt, properties: Properties, defaultValue?: unknown) {
    const props = rt.states.state.props;
    for (const key in properties) if (!(key in props) || props[key] === defaultValue) props[key] = properties[key];
    rt.states.save();
  },

  unregister(rt, name: string) {
    delete rt.states.state.props[name];
    rt.states.save();
  },

  get_distinct_id: (rt) => rt.states.state.distinct_id,

  setPersonProperties(rt, $set?: Properties, $set_once?: Properties) {
    if (noPersons(rt, 'setPersonProperties')) return;
    personOn(rt);
    setPerson(rt, $set, $set_once);
  },
};

/** posthog-js's other person and group methods (full build). */
export const identityExtraMethods: Pick<Methods, 'getGroups' | 'resetGroups' | 'unsetPersonProperties' | 'createPersonProfile' | 'setInternalOrTestUser'> = {
  getGroups: (rt) => ({ ...rt.states.state.$groups }),

  resetGroups(rt) {
    rt.states.state.$groups = {};
    rt.states.save();
    reloadFlags(rt.flagState);
  },

  unsetPersonProperties(rt, names) {
    if (noPersons(rt, 'unsetPersonProperties')) return;
    personOn(rt);
    track(rt, '$set', { $unset: [names].flat() });
  },

  createPersonProfile(rt) {
    const state = rt.states.state;
    if (noPersons(rt, 'createPersonProfile') || state.$epp || state.$user_state === 'identified') return;
    personOn(rt);
    setPerson(rt, {}, {});
  },

  setInternalOrTestUser(rt) {
    if (noPersons(rt, 'setInternalOrTestUser')) return;
    personOn(rt);
    setPerson(rt, { $internal_or_test_user: true });
  },
};
