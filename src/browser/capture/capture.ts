/**
 * From a public call to a queued event: the properties every event carries (page context,
 * session, device, super properties, groups, flags, person processing), the app's hooks
 * (before-send.ts), validation and serialisation by core/event, and the queue. A refused or
 * dropped event is counted and reported; a kept one is returned as posthog-js returns it.
 */
import { InvalidEventError } from '../../core/errors';
import { buildEvent, DEFAULT_MAX_EVENT_BYTES, type EventInput, type QueuedEvent, type SharedProperties } from '../../core/event';
import { isObject, PERSON_EVENTS, screenEvent, surveyEvent, type SpecialEvent } from '../../core/special-events';
import { uuidv7 } from '../../core/uuid';
import { sendByBeacon } from '../delivery/beacon';
import { LITE } from '../build-flags';
import { COOKIELESS_ID, cookieless, optedOut } from '../state/consent-rules';
import { flagProperties, shownFlags } from '../features/flags-state';
import { runHooks, type CaptureDraft } from '../features/hooks';
import type { Methods, Runtime } from '../runtime';
import type { CaptureOptions, CaptureResult, Properties } from '../types';
import { textOf } from '../../core/text-of';

export function refuse(rt: Runtime, message: string): void {
  rt.queue_.countDrop('invalid');
  rt.report_(new InvalidEventError(`${message}. The event was not queued.`, 'invalid', undefined));
}

/** True (after reporting) when person_profiles: 'never' forbids `what`. */
export const noPersons = (rt: Runtime, what: string): boolean =>
  rt.mode_ === 'never' && (refuse(rt, `${what}() is off with person_profiles: 'never'`), true);

/** posthog-js's capture() result, read from the queued JSON only if the app looks at it. */
function captureResult(record: QueuedEvent, event: string): CaptureResult {
  let parsed: { properties: Properties; timestamp: string } | undefined;
  const read = () => (parsed ??= JSON.parse(record.json) as { properties: Properties; timestamp: string });
  return {
    uuid: record.uuid,
    event,
    get properties() {
      return read().properties;
    },
    get timestamp() {
      return new Date(read().timestamp);
    },
  };
}

/**
 * The properties hogtail adds to an event the caller sent with `own` properties: `shared` with
 * the page's other events (serialised once; core/event.ts), `sdk` this event's. A `$pageview`
 * needs its `uuid` (posthog-js's `$pageview_id` is the page view's own uuid).
 */
function sdkProperties(
  rt: Runtime,
  event: unknown,
  own: Properties,
  now: number,
  options?: CaptureOptions,
  uuid?: string,
): { sdk: Properties; shared: SharedProperties } {
  const { states_: states, mode_: mode } = rt;
  const state = states.state_;
  const sdk: Properties = {};
  // The caller's properties win over page context and super properties, so no key is ever
  // written twice and buildEvent stays on its fast path.
  const add = (source: Properties | undefined) => {
    for (const key in source) if (!(key in own)) sdk[key] = source[key];
  };
  const sessionId = states.session_(now);
  const { shared, visit } = rt.visit_.parts_(event, uuid, now, sessionId);
  add(cookieless(rt) ? { $session_id: sessionId, $cookieless_mode: true } : { $session_id: sessionId, $device_id: state.$device_id });
  add(rt.sessionProps_);
  add(state.props);
  add(visit);
  add(flagProperties(rt.flagState_, shownFlags(rt.flagState_, state)));
  for (const _ in state.$groups) {
    add({ $groups: state.$groups });
    break;
  }
  const personEvent = PERSON_EVENTS.has(event as string) || event === '$set';
  const person = !(mode === 'never' || (mode !== 'always' && !personEvent && !state.$epp && state.$user_state !== 'identified'));
  add({ $process_person_profile: person });
  if (options?.$set) sdk.$set = options.$set;
  if (options?.$set_once) sdk.$set_once = options.$set_once;
  return { sdk, shared };
}

/**
 * The visitor's first page and the session's go with the first event of a page that processes the
 * person (posthog-js), under what the caller sets once (in its properties or options); so do
 * Meta's ids, under what the caller sets. Returns what was added to `$set`.
 */
function addPersonProperties(rt: Runtime, event: unknown, input: EventInput, sdk: Properties, options?: CaptureOptions) {
  const own = Object(input.properties) as Properties;
  const setOnce = rt.visit_.setOnce_(event);
  if (setOnce) addUnder(input, sdk, '$set_once', setOnce);
  // !LITE: the lite tag sends no Meta ids; saying so lets its minifier drop this.
  const set = !LITE && rt.visit_.personSet_?.([own.$set, options?.$set]);
  if (set) addUnder(input, sdk, '$set', set);
  return set;
}

/**
 * Adds `extra` to the event's `key` (`$set` or `$set_once`) where the caller put theirs: in the
 * properties, or else in the options (which the SDK's properties carry). The caller's values win.
 */
function addUnder(input: EventInput, sdk: Properties, key: '$set' | '$set_once', extra: Properties): void {
  const own = Object(input.properties) as Properties;
  const merged = { ...extra, ...(isObject(own[key]) && own[key]), ...(sdk[key] as Properties | undefined) };
  if (key in own) {
    input.properties = { ...own, [key]: merged };
    delete sdk[key];
  } else sdk[key] = merged;
}

/** An event a hook dropped: counted as `before_send`, and said in debug mode. */
function droppedBefore(rt: Runtime, event: unknown, by: string): undefined {
  rt.queue_.countDrop('before_send');
  rt.debug(`"${textOf(event)}" dropped by ${by}`);
  return undefined;
}

export function track(
  rt: Runtime,
  event: unknown,
  properties?: unknown,
  options?: CaptureOptions,
  distinctId?: string,
): CaptureResult | undefined {
  try {
    return trackUnsafe(rt, event, properties, options, distinctId);
  } catch (error) {
    // Properties that cannot be read (a throwing getter, a Proxy): refused and counted, as Node does.
    refuse(rt, `the properties of "${textOf(event)}" could not be read (${textOf(error)})`);
  }
}

function trackUnsafe(
  rt: Runtime,
  event: unknown,
  properties?: unknown,
  options?: CaptureOptions,
  distinctId?: string,
): CaptureResult | undefined {
  const { queue_: queue, config_: config } = rt;
  if (optedOut(rt)) {
    queue.countDrop('opted_out');
    rt.debug(`"${textOf(event)}" not captured (opted out)`);
    return;
  }
  const now = Date.now();
  // A page view's uuid is known before its properties are: they name it (the lite tag has no page-view chain).
  const uuid = options?.uuid ?? (!LITE && event === '$pageview' ? uuidv7(now) : undefined);
  // {} for null and undefined; a non-object is refused by buildEvent anyway.
  const own = Object(properties) as Properties;
  const added = sdkProperties(rt, event, own, now, options, uuid as string | undefined);
  let sdk = added.sdk;
  let shared: SharedProperties | undefined = added.shared;
  let input: EventInput | null = {
    event,
    distinctId: cookieless(rt) ? COOKIELESS_ID : (distinctId ?? rt.states_.state_.distinct_id),
    properties,
    timestamp: options?.timestamp,
    uuid,
  };
  const set = sdk.$process_person_profile && addPersonProperties(rt, event, input, sdk, options);
  // The features' hooks (features/hooks.ts), then the app's (before-send.ts): either may change or
  // drop the event. !LITE: the lite script tag has neither; saying so lets its minifier drop this.
  if (!LITE && rt.hooks_.beforeCapture) {
    const draft: CaptureDraft = { input, sdk, now };
    if (!runHooks(rt, 'beforeCapture', draft)) return droppedBefore(rt, event, 'a feature');
    ({ input, sdk } = draft);
  }
  if (
    !LITE &&
    rt.beforeSend_ &&
    (config.before_send || config.sanitize_properties || config.property_denylist || config.property_blacklist) &&
    typeof event === 'string' &&
    typeof (properties ?? {}) === 'object'
  ) {
    input = rt.beforeSend_(rt, input, { ...shared.props, ...sdk }, now);
    if (!input) return droppedBefore(rt, event, 'before_send');
    sdk = {};
    shared = undefined;
  }
  const built = buildEvent(input, sdk, DEFAULT_MAX_EVENT_BYTES, now, shared);
  if (!built.ok) {
    queue.countDrop(built.error.reason);
    rt.report_(built.error);
    return;
  }
  for (const note of built.notes) rt.debug(`"${textOf(event)}": ${note}`);
  const record = built.record;
  queue.enqueue(record);
  if (!LITE && set) rt.visit_.setSent_?.(record.json);
  if (rt.verbose_) rt.debug(`captured ${record.json}`);
  if (options?.send_instantly) void queue.flush();
  // Also queued: the beacon's fate is unknown, so the queue still delivers it (same uuid).
  if (options?.transport === 'sendBeacon') sendByBeacon(rt.endpoint_, [record]);
  return captureResult(record, input.event as string);
}

/** A special event from core/special-events: refused with its message, or captured. */
export function special(rt: Runtime, event: SpecialEvent, distinctId?: string): CaptureResult | undefined {
  if ('error' in event) refuse(rt, event.error);
  else return track(rt, event.event, event.properties, undefined, distinctId);
}

export const captureMethods: Pick<
  Methods,
  'capture' | 'screen' | 'surveyShown' | 'surveyDismissed' | 'surveySent' | 'flush' | 'stats' | 'debug'
> = {
  capture: (rt, event: unknown, properties?: unknown, options?: CaptureOptions) => track(rt, event, properties, options),
  screen: (rt, name: unknown, properties?: unknown) => void special(rt, screenEvent(name, properties)),
  surveyShown: (rt, id: unknown, properties?: unknown) => void special(rt, surveyEvent('survey shown', id, properties)),
  surveyDismissed: (rt, id: unknown, properties?: unknown) => void special(rt, surveyEvent('survey dismissed', id, properties)),
  surveySent: (rt, id: unknown, response: unknown, properties?: unknown) =>
    void special(rt, surveyEvent('survey sent', id, properties, response)),
  flush: (rt) => rt.queue_.flush(),
  stats: (rt) => ({ ...rt.queue_.stats(), unsaved: rt.ledger_.unsaved_, repaired: rt.repaired_ }),
  debug: (rt, enabled?: boolean) => rt.setDebug_(enabled !== false),
};

/** posthog-js's less common capture helpers (full build). */
export const captureExtraMethods: Pick<Methods, 'shutdown' | 'calculateEventProperties' | 'captureTraceFeedback' | 'captureTraceMetric'> = {
  shutdown: (rt) => rt.queue_.flush(),
  calculateEventProperties(rt, event, properties) {
    const { sdk, shared } = sdkProperties(rt, event, Object(properties), Date.now());
    return { ...shared.props, ...sdk, ...properties };
  },
  captureTraceFeedback: (rt, traceId, feedback) =>
    void track(rt, '$ai_feedback', { $ai_trace_id: String(traceId), $ai_feedback_text: feedback }),
  captureTraceMetric: (rt, traceId, metricName, metricValue) =>
    void track(rt, '$ai_metric', { $ai_trace_id: String(traceId), $ai_metric_name: metricName, $ai_metric_value: String(metricValue) }),
};
