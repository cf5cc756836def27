/**
 * Turns the server client's calls into queued events: reads each message once (nothing a message
 * holds can make a method throw), builds and validates the event, waits for the user's flags when
 * the call asks for them (keeping capture order), and counts and reports every refusal.
 */
import { DroppedEventsError, HogtailError, type InvalidEventError } from '../errors';
import type { QueuedEvent } from '../event';
import { featureProperties } from '../flags/decide';
import type { Queue } from '../queue';
import type { SpecialEvent } from '../special-events';
import { uuidv7 } from '../uuid';
import { buildServerEvent, cleanGroups, type BuildSettings, type Envelope } from './build';
import { queuedLine } from './debug-log';
import type { FlagCache } from './flag-cache';
import { withGroupKeys, type FlagCalled, type LocalEvaluator, type ServerFeatureFlags } from './feature-flags';
import type { HeldEvents } from './held-events';
import type { CallRecord } from './immediate';
import { readMessage, readSpecial } from './read-message';
import { textOf } from '../text-of';

export interface IntakeDeps {
  settings: BuildSettings;
  queue: Queue;
  held: HeldEvents;
  flags: ServerFeatureFlags;
  flagCache: FlagCache;
  local: LocalEvaluator | undefined;
  strictLocal: boolean | undefined;
  /** Every problem, so *Immediate promises hear of their drops. */
  report(error: HogtailError): void;
  debug(message: string): void;
  /** Debug mode is on: each queued event is printed. */
  verbose(): boolean;
  disabled(): boolean;
  closed(): boolean;
  /** Called before an event is queued: a client closed by shutdown() takes events again. */
  wake(): void;
  /** The *Immediate call running now, if any. */
  record(): CallRecord | undefined;
}

export interface Intake {
  capture(message: unknown): void;
  /** A reserved event (identify, alias, …) made from its message. */
  special<M extends object>(message: M, make: (m: M) => SpecialEvent, distinctIdOf?: (m: M) => unknown): void;
  flagCalled(called: FlagCalled): void;
  /** enable(): the next opted-out event is reported again. */
  resetOptOut(): void;
}

const OPTED_OUT =
  'capture is disabled (the disabled option, disable() or optOut()): events are counted in stats().dropped.opted_out and not sent. Call enable() or optIn() to send again.';

export function createIntake(deps: IntakeDeps): Intake {
  const { queue, held } = deps;
  /** A disabled client reports its first dropped event, then only counts (stats().dropped.opted_out). */
  let optOutReported = false;

  function refuse(error: InvalidEventError | HogtailError, reason: 'invalid' | 'too_large' = 'invalid'): void {
    queue.countDrop(reason);
    const record = deps.record();
    if (record) record.error = error;
    deps.report(error);
  }

  /** Validates and serialises one event; undefined (reported and counted) when it cannot be sent. */
  function build(event: unknown, properties: unknown, envelope: Envelope, extra?: Record<string, unknown>): QueuedEvent | undefined {
    if (deps.disabled()) {
      queue.countDrop('opted_out');
      const error = new DroppedEventsError(OPTED_OUT, 'opted_out', []);
      const record = deps.record();
      if (record) record.error = error;
      if (!optOutReported) {
        optOutReported = true;
        deps.report(error);
      }
      return undefined;
    }
    let merged = properties;
    if (extra) {
      try {
        merged = { ...extra, ...(properties as object) };
      } catch (error) {
        refuse(new HogtailError(`the properties of "${textOf(event)}" could not be read (${textOf(error)}); the event was not queued.`));
        return undefined;
      }
    }
    const outcome = buildServerEvent(deps.settings, event, merged, envelope);
    if (outcome.kind === 'event') return outcome.record;
    if (outcome.kind === 'before_send') queue.countDrop('before_send');
    else refuse(outcome.error, outcome.reason);
    return undefined;
  }

  function enqueue(event: unknown, properties: unknown, envelope: Envelope, extra?: Record<string, unknown>): void {
    const record = build(event, properties, envelope, extra);
    if (record === undefined) return;
    deps.wake();
    deps.record()?.uuids.push(record.uuid);
    if (deps.verbose()) deps.debug(queuedLine(record));
    if (held.holding) held.behind(record);
    else queue.enqueue(record);
  }

  function captureWithFlags(event: unknown, properties: unknown, envelope: Envelope): void {
    const distinctId = envelope.distinctId as string;
    const groups = cleanGroups(envelope.groups, deps.debug);
    // The same lookup getFeatureFlag makes for these groups, so both share one cache entry.
    const geoipDisable = deps.settings.geoipDisable(envelope.disableGeoip, envelope.ip);
    const lookup = { groups, groupProperties: withGroupKeys(groups, undefined), ip: envelope.ip, geoipDisable };
    const local = deps.local?.allNow(distinctId, lookup);
    if (local && (local.undecided.length === 0 || deps.strictLocal))
      return enqueue(event, properties, envelope, featureProperties(local.flags));
    const cached = deps.flagCache.peek(distinctId, lookup);
    if (cached?.fresh) return enqueue(event, properties, envelope, featureProperties(cached.snapshot.flags));
    // Fix the event's identity and time now, so waiting for flags changes neither; later events wait
    // behind it (held) so the queue still sees capture order.
    const fixed = { ...envelope, timestamp: envelope.timestamp ?? new Date(), uuid: envelope.uuid ?? uuidv7() };
    deps.wake();
    const place = held.hold(fixed.uuid);
    deps.record()?.uuids.push(fixed.uuid);
    const waiting = deps.flags
      .propertiesFor(distinctId, lookup)
      .catch((error: unknown) => {
        deps.debug(`flags for "${distinctId}" not added to its event: ${textOf(error)}`);
        return {};
      })
      .then((flagProperties) => {
        if (!deps.closed()) place(build(event, properties, fixed, flagProperties));
      })
      .finally(() => held.waiting.delete(waiting));
    held.waiting.add(waiting);
  }

  return {
    capture(message) {
      const read = readMessage(message, refuse);
      if (!read) return;
      try {
        if (read.sendFeatureFlags && typeof read.envelope.distinctId === 'string' && !deps.disabled())
          captureWithFlags(read.event, read.properties, read.envelope);
        else enqueue(read.event, read.properties, read.envelope);
      } catch (error) {
        // capture() never throws into the host app (a Proxy as groups, say): refused and reported.
        refuse(new HogtailError(`"${textOf(read.event)}" could not be captured (${textOf(error)}); the event was not queued.`));
      }
    },
    special(message, make, distinctIdOf) {
      const read = readSpecial(message, make, distinctIdOf, refuse);
      if (read) enqueue(read.event, read.properties, read.envelope);
    },
    flagCalled({ distinctId, key, value, requestId, error, groups, disableGeoip, locallyEvaluated, definition }) {
      // A value that could not be had is never recorded as false: it is left out, with the reason.
      const properties: Record<string, unknown> = { $feature_flag: key, locally_evaluated: locallyEvaluated };
      if (value !== undefined) {
        properties.$feature_flag_response = value;
        properties['$feature/' + key] = value;
      }
      if (requestId !== undefined) properties.$feature_flag_request_id = requestId;
      if (error !== undefined) properties.$feature_flag_error = error;
      if (definition)
        Object.assign(properties, {
          $feature_flag_id: definition.id,
          $feature_flag_version: definition.version,
          $feature_flag_reason: 'Evaluated locally',
        });
      enqueue('$feature_flag_called', properties, { distinctId, groups, disableGeoip });
    },
    resetOptOut() {
      optOutReported = false;
    },
  };
}
