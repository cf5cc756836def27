/**
 * Reads a call's message object once, up front: a message with a throwing getter, or a Proxy, is
 * refused with a reported error instead of throwing into the host app (docs/guarantees.md §4 promises that
 * capture() never throws), and nothing read later can throw from a timer or a promise.
 */
import { HogtailError, InvalidEventError } from '../errors';
import { describe } from '../event';
import type { SpecialEvent } from '../special-events';
import type { Envelope } from './build';
import { textOf } from '../text-of';

type Refuse = (error: InvalidEventError | HogtailError) => void;

interface Fields {
  distinctId?: unknown;
  event?: unknown;
  properties?: unknown;
  groups?: unknown;
  timestamp?: unknown;
  uuid?: unknown;
  disableGeoip?: unknown;
  ip?: unknown;
  sendFeatureFlags?: unknown;
}

export interface ReadMessage {
  event: unknown;
  properties: unknown;
  sendFeatureFlags: boolean;
  envelope: Envelope;
}

function envelopeOf(m: Fields, distinctId: unknown): Envelope {
  return {
    distinctId,
    timestamp: m.timestamp as Envelope['timestamp'],
    uuid: m.uuid as string | undefined,
    groups: m.groups,
    disableGeoip: typeof m.disableGeoip === 'boolean' ? m.disableGeoip : undefined,
    ip: typeof m.ip === 'string' && m.ip.trim() !== '' ? m.ip.trim() : undefined,
  };
}

const unreadable = (what: string, error: unknown) =>
  new HogtailError(`the message passed to ${what} could not be read (${textOf(error)}); the event was not queued.`);

const NOT_A_MESSAGE = "capture() takes one object, as posthog-node's does: capture({ distinctId, event, properties }); got ";

export function readMessage(message: unknown, refuse: Refuse): ReadMessage | undefined {
  // posthog-js's capture('event', properties), or no argument: the usual first mistake, so the shape is named.
  if (typeof message !== 'object' || message === null) {
    refuse(
      new InvalidEventError(
        `${NOT_A_MESSAGE}${describe(message)}. The event was not queued.`,
        'invalid',
        typeof message === 'string' ? message : undefined,
      ),
    );
    return undefined;
  }
  try {
    const m = message as Fields;
    // posthog-node also takes an options object as sendFeatureFlags; hogtail's lookup then uses the event's own groups.
    const sendFeatureFlags = m.sendFeatureFlags === true || (typeof m.sendFeatureFlags === 'object' && m.sendFeatureFlags !== null);
    return { event: m.event, properties: m.properties, sendFeatureFlags, envelope: envelopeOf(m, m.distinctId) };
  } catch (error) {
    refuse(unreadable('capture()', error));
    return undefined;
  }
}

/** The reserved event a message makes (identify, alias, …), or undefined when refused (reported). */
export function readSpecial<M extends object>(
  message: M,
  make: (m: M) => SpecialEvent,
  distinctIdOf: ((m: M) => unknown) | undefined,
  refuse: Refuse,
): { event: string; properties: Record<string, unknown>; envelope: Envelope } | undefined {
  try {
    const m = (message ?? {}) as M;
    const special = make(m);
    if ('error' in special) {
      refuse(new InvalidEventError(`${special.error}. The event was not queued.`, 'invalid', undefined));
      return undefined;
    }
    const distinctId = distinctIdOf ? distinctIdOf(m) : (m as Fields).distinctId;
    return { event: special.event, properties: special.properties, envelope: envelopeOf(m as Fields, distinctId) };
  } catch (error) {
    refuse(unreadable('a hogtail method', error));
    return undefined;
  }
}
