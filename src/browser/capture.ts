/**
 * From a public call to a queued event: the properties every event carries (page context,
 * session, device, super properties, groups, flags, person processing), validation and
 * serialisation by core/event, and the queue. A refused or dropped event is counted and reported.
 */
import { InvalidEventError } from '../core/errors';
import { buildEvent, DEFAULT_MAX_EVENT_BYTES } from '../core/event';
import { PERSON_EVENTS, screenEvent, surveyEvent, type SpecialEvent } from '../core/special-events';
import { flagProperties } from './flags-state';
import type { CaptureOptions, Properties } from './hogtail';
import { pageContext } from './page-context';
import type { Methods, Runtime } from './runtime';

export function refuse(rt: Runtime, message: string): void {
  rt.queue.countDrop('invalid');
  rt.report(new InvalidEventError(`${message}. The event was not queued.`, 'invalid', undefined));
}

/** True (after reporting) when person_profiles: 'never' forbids `what`. */
export const noPersons = (rt: Runtime, what: string): boolean =>
  rt.mode === 'never' && (refuse(rt, `${what}() is off with person_profiles: 'never'`), true);

export function track(rt: Runtime, event: unknown, properties?: unknown, options?: CaptureOptions, distinctId?: string): void {
  const { states, queue, mode } = rt;
  const state = states.state;
  if (state.optout) {
    queue.countDrop('opted_out');
    rt.debug(`"${String(event)}" not captured (opted out)`);
    return;
  }
  const now = Date.now();
  // {} for null and undefined; a non-object is refused by buildEvent anyway.
  const own = Object(properties) as Properties;
  const sdk: Properties = {};
  // The caller's properties win over page context and super properties, so no key is ever
  // written twice and buildEvent stays on its fast path.
  const add = (source: Properties | undefined) => {
    for (const key in source) if (!(key in own)) sdk[key] = source[key];
  };
  add(pageContext());
  add({ $session_id: states.session(now), $device_id: state.$device_id });
  add(state.props);
  add(flagProperties(rt.flagState, state.ff));
  for (const _ in state.$groups) {
    add({ $groups: state.$groups });
    break;
  }
  const personEvent = PERSON_EVENTS.has(event as string) || event === '$set';
  if (mode === 'never' || (!mode && !personEvent && !state.$epp && state.$user_state !== 'identified')) {
    add({ $process_person_profile: false });
  }
  if (options?.$set) sdk.$set = options.$set;
  if (options?.$set_once) sdk.$set_once = options.$set_once;
  const built = buildEvent(
    { event, distinctId: distinctId ?? state.distinct_id, properties, timestamp: options?.timestamp, uuid: options?.uuid },
    sdk,
    DEFAULT_MAX_EVENT_BYTES,
    now,
  );
  if (!built.ok) {
    queue.countDrop(built.error.reason);
    return rt.report(built.error);
  }
  for (const note of built.notes) rt.debug(`"${String(event)}": ${note}`);
  queue.enqueue(built.record);
}

/** A special event from core/special-events: refused with its message, or captured. */
export function special(rt: Runtime, event: SpecialEvent, distinctId?: string): void {
  if ('error' in event) refuse(rt, event.error);
  else track(rt, event.event, event.properties, undefined, distinctId);
}

export const captureMethods: Pick<Methods, 'capture' | 'screen' | 'surveyShown' | 'surveyDismissed' | 'surveySent' | 'flush' | 'stats' | 'debug'> = {
  capture: (rt, event: unknown, properties?: unknown, options?: CaptureOptions) => track(rt, event, properties, options),
  screen: (rt, name: unknown, properties?: unknown) => special(rt, screenEvent(name, properties)),
  surveyShown: (rt, id: unknown, properties?: unknown) => special(rt, surveyEvent('survey shown', id, properties)),
  surveyDismissed: (rt, id: unknown, properties?: unknown) => special(rt, surveyEvent('survey dismissed', id, properties)),
  surveySent: (rt, id: unknown, response: unknown, properties?: unknown) => special(rt, surveyEvent('survey sent', id, properties, response)),
  flush: (rt) => rt.queue.flush(),
  stats: (rt) => ({ ...rt.queue.stats(), unsaved: rt.ledger.unsaved }),
  debug: (rt, enabled?: boolean) => rt.setDebug(enabled !== false),
};
