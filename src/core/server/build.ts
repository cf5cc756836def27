/**
 * Turns one server-client call into a queued event or a counted outcome: the SDK properties
 * (`$lib`, `$groups`, `$geoip_disable`, `$ip`, the person-profile marker), the user's before_send
 * hooks, then validation and serialisation (core/event.ts). Never throws: whatever the message
 * holds (throwing getters, Proxies, BigInt, cycles), the result says what happened.
 */
import { HogtailError, type InvalidEventError } from '../errors';
import { buildEvent, DEFAULT_MAX_EVENT_BYTES, type QueuedEvent } from '../event';
import { isObject, PERSON_EVENTS } from '../special-events';
import { LIB_VERSION } from '../version';
import type { BeforeSendEvent, BeforeSendFn, Properties, Timestamp } from './messages';
import { textOf } from '../text-of';

/** What a call says about its event beyond name and properties, read once from the message. */
export interface Envelope {
  distinctId: unknown;
  timestamp?: Timestamp | undefined;
  uuid?: string | undefined;
  groups?: unknown;
  disableGeoip?: boolean | undefined;
  ip?: string | undefined;
}

export interface BuildSettings {
  lib: string;
  personProfiles: 'always' | 'never';
  historicalMigration: boolean;
  beforeSend: readonly BeforeSendFn[];
  /** Whether the event carries `$geoip_disable: true`. */
  geoipDisable(perCall: boolean | undefined, ip: string | undefined): boolean;
  debug(message: string): void;
  /** A hook that threw (the event goes on as it was). */
  report(error: HogtailError): void;
}

export type BuildOutcome =
  | { kind: 'event'; record: QueuedEvent }
  | { kind: 'before_send' }
  | { kind: 'invalid'; error: InvalidEventError | HogtailError; reason: 'invalid' | 'too_large' };

/** Group type to key, with only values the server can use (strings and finite numbers). */
export function cleanGroups(groups: unknown, debug: (message: string) => void): Record<string, string | number> | undefined {
  if (groups === undefined || groups === null) return undefined;
  if (!isObject(groups)) {
    debug(`groups must be an object of group type to key; ignored ${typeof groups}`);
    return undefined;
  }
  const clean: Record<string, string | number> = {};
  for (const [type, key] of Object.entries(groups)) {
    if (typeof key === 'string' || (typeof key === 'number' && Number.isFinite(key))) clean[type] = key;
    else debug(`groups.${type} must be a string or a number; ignored ${typeof key}`);
  }
  return clean;
}

function runBeforeSend(settings: BuildSettings, input: BeforeSendEvent): BeforeSendEvent | null {
  let current: BeforeSendEvent | null = input;
  for (const hook of settings.beforeSend) {
    try {
      const next = hook(current);
      if (next === null || next === undefined) return null;
      current = next;
    } catch (error) {
      // posthog-node goes on with the event as it was; so do we, and say so.
      settings.report(
        new HogtailError(
          `a before_send hook threw (${textOf(error)}) for "${textOf(input.event)}"; the event was sent as it was before that hook.`,
        ),
      );
    }
  }
  return current;
}

/**
 * The usual SDK property sets (no groups, no ip), frozen, by library and flags: the event builder
 * serialises a frozen set it saw last only once, which matters on the hot path.
 */
const usualSets = new Map<string, Properties[]>();
function usualSet(lib: string, keepsLib: boolean, personless: boolean, geoip: boolean): Properties {
  let sets = usualSets.get(lib);
  if (!sets) usualSets.set(lib, (sets = []));
  const index = (keepsLib ? 4 : 0) + (personless ? 2 : 0) + (geoip ? 1 : 0);
  let set = sets[index];
  if (!set) {
    const sdk: Properties = keepsLib ? {} : { $lib: lib, $lib_version: LIB_VERSION };
    if (personless) sdk.$process_person_profile = false;
    if (geoip) sdk.$geoip_disable = true;
    sets[index] = set = Object.freeze(sdk);
  }
  return set;
}

function sdkProperties(settings: BuildSettings, event: unknown, properties: unknown, envelope: Envelope): Properties {
  // A migration keeps the library that recorded the event: its `$lib` is history, not ours to overwrite.
  const keepsLib = settings.historicalMigration && isObject(properties) && '$lib' in properties;
  // The server drops person events that say they process no person.
  const personless = settings.personProfiles === 'never' && !(typeof event === 'string' && PERSON_EVENTS.has(event));
  const geoip = settings.geoipDisable(envelope.disableGeoip, envelope.ip);
  const usual = usualSet(settings.lib, keepsLib, personless, geoip);
  const groups = cleanGroups(envelope.groups, settings.debug);
  if (!groups && !envelope.ip) return usual;
  const sdk: Properties = { ...usual };
  if (groups) sdk.$groups = groups;
  if (envelope.ip) sdk.$ip = envelope.ip;
  return sdk;
}

export function buildServerEvent(settings: BuildSettings, name: unknown, properties: unknown, envelope: Envelope): BuildOutcome {
  try {
    let event = name;
    let props = properties;
    let distinctId = envelope.distinctId;
    let { timestamp, uuid } = envelope;
    let groups = envelope.groups;
    if (settings.beforeSend.length > 0 && typeof event === 'string' && (props === undefined || props === null || isObject(props))) {
      const changed = runBeforeSend(settings, {
        distinctId: distinctId as string,
        event,
        properties: { ...props },
        groups: groups as never,
        timestamp,
        uuid,
      });
      if (changed === null) return { kind: 'before_send' };
      ({ event, properties: props, distinctId, timestamp, uuid, groups } = changed);
    }
    const sdk = sdkProperties(settings, event, props, groups === envelope.groups ? envelope : { ...envelope, groups });
    const built = buildEvent({ event, distinctId, properties: props, timestamp, uuid }, sdk, DEFAULT_MAX_EVENT_BYTES);
    if (!built.ok) return { kind: 'invalid', error: built.error, reason: built.error.reason };
    for (const note of built.notes) settings.debug(`"${String(event)}": ${note}`);
    return { kind: 'event', record: built.record };
  } catch (error) {
    // capture() never throws into the host app: a message that cannot even be read is refused.
    const error_ = new HogtailError(`the event could not be read (${textOf(error)}); it was not queued.`);
    return { kind: 'invalid', error: error_, reason: 'invalid' };
  }
}
