/**
 * Who the events are about: identify, alias, groups, reset, super properties and person
 * properties. A change of who the events are about (a new id, groups, a reset) is told to the
 * features (onIdentityChange): flags then ask for fresh values.
 */
import { aliasEvent, asText, groupIdentifyEvent, identifyEvent, isText } from '../../core/special-events';
import { noPersons, refuse, special, track } from '../capture/capture';
import { runHooks, type IdentityChange } from '../features/hooks';
import type { Properties } from '../types';
import type { Methods, Runtime } from '../runtime';
import { freshState } from './state';

const setPerson = (rt: Runtime, $set: unknown, $set_once?: unknown) => track(rt, '$set', { $set: $set ?? {}, $set_once: $set_once ?? {} });

/** Tells the features who the events are about now. */
const changed = (rt: Runtime, reason: IdentityChange['reason']) =>
  runHooks(rt, 'onIdentityChange', { reason, distinctId: rt.states_.state_.distinct_id });

/** Person processing on from now (identified_only mode). */
function personOn(rt: Runtime): void {
  rt.states_.state_.$epp = true;
  rt.states_.save_();
}

export const identityMethods: Pick<
  Methods,
  'identify' | 'alias' | 'group' | 'reset' | 'register' | 'register_once' | 'unregister' | 'get_distinct_id' | 'setPersonProperties'
> = {
  identify(rt, distinctId: unknown, $set?: unknown, $set_once?: unknown) {
    if (noPersons(rt, 'identify')) return;
    const id = asText(distinctId);
    if (!isText(id)) return refuse(rt, `identify() needs a distinct id; got ${typeof id}`);
    const state = rt.states_.state_;
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
    if (id !== previous) changed(rt, 'identify');
  },

  alias(rt, alias: unknown, original?: string) {
    if (noPersons(rt, 'alias')) return;
    personOn(rt);
    special(rt, aliasEvent(alias), original ?? rt.states_.state_.distinct_id);
  },

  group(rt, groupType: string, groupKey: unknown, properties?: unknown) {
    if (noPersons(rt, 'group')) return;
    const event = groupIdentifyEvent(groupType, groupKey, properties);
    if ('error' in event) return refuse(rt, event.error);
    const state = rt.states_.state_;
    const key = String(groupKey);
    // As posthog-js: a group new to this user is announced, with or without properties.
    const isNew = state.$groups[groupType] !== key;
    state.$groups = { ...state.$groups, [groupType]: key };
    personOn(rt);
    if (isNew || properties) track(rt, event.event, event.properties);
    changed(rt, 'group');
  },

  reset(rt, resetDeviceId?: boolean) {
    const states = rt.states_;
    const state = states.state_;
    states.replace_(freshState(resetDeviceId ? undefined : state.$device_id, state.optout));
    changed(rt, 'reset');
  },

  register(rt, properties: Properties) {
    Object.assign(rt.states_.state_.props, properties);
    rt.states_.save_();
  },

  register_once(rt, properties: Properties, defaultValue?: unknown) {
    const props = rt.states_.state_.props;
    for (const key in properties) if (!(key in props) || props[key] === defaultValue) props[key] = properties[key];
    rt.states_.save_();
  },

  unregister(rt, name: string) {
    delete rt.states_.state_.props[name];
    rt.states_.save_();
  },

  get_distinct_id: (rt) => rt.states_.state_.distinct_id,

  setPersonProperties(rt, $set?: Properties, $set_once?: Properties) {
    if (noPersons(rt, 'setPersonProperties')) return;
    personOn(rt);
    setPerson(rt, $set, $set_once);
  },
};

/** posthog-js's other person and group methods (full build). */
export const identityExtraMethods: Pick<
  Methods,
  'getGroups' | 'resetGroups' | 'unsetPersonProperties' | 'createPersonProfile' | 'setInternalOrTestUser'
> = {
  getGroups: (rt) => ({ ...rt.states_.state_.$groups }),

  resetGroups(rt) {
    rt.states_.state_.$groups = {};
    rt.states_.save_();
    changed(rt, 'group');
  },

  unsetPersonProperties(rt, names) {
    if (noPersons(rt, 'unsetPersonProperties')) return;
    personOn(rt);
    track(rt, '$set', { $unset: [names].flat() });
  },

  createPersonProfile(rt) {
    const state = rt.states_.state_;
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
