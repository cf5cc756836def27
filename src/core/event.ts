/**
 * Turns what an application passed to capture() into the exact bytes that will go on the wire.
 *
 * Validation happens here, once, because the real server fails a whole request with 400 for one
 * bad event: nothing invalid may reach the queue. The JSON is fixed at capture so every retry
 * resends the same event with the same uuid.
 */
import { BROWSER_BUILD } from './build-flags';
import { InvalidEventError } from './errors';
import { attempt, serializeProperties } from './safe-json';
import { asText, isText } from './special-events';
import { isUuid, uuidv7 } from './uuid';

/** One event waiting in the queue. */
export interface QueuedEvent {
  uuid: string;
  /**
   * The batch item as JSON: `{"uuid","event","distinct_id","properties","timestamp"}`. The distinct
   * id is both at the top level (server SDKs and their tooling read it there) and in properties
   * (where the public description places it; docs/wire-protocol.md, "Events"), as the first property,
   * so the second copy follows the first closely and gzip folds it: 1–2 bytes less per event for
   * UUID or e-mail ids than after the caller's properties (BENCHMARKS.md, "Node throughput").
   * `uuid` comes first: its position is fixed.
   */
  json: string;
}

export interface EventInput {
  event: unknown;
  distinctId: unknown;
  properties?: unknown;
  timestamp?: unknown;
  uuid?: unknown;
}

/**
 * Properties many events share (a page's), serialised once by the caller instead of per event.
 * The event's own properties win over them, and so do the SDK properties passed per event.
 */
export interface SharedProperties {
  readonly props: Record<string, unknown>;
  /** `props` as JSON without its braces ('' when empty). */
  readonly json: string;
}

/** `props` serialised for many events (it must not name `distinct_id`). */
export const shareProperties = (props: Record<string, unknown>): SharedProperties => ({ props, json: JSON.stringify(props).slice(1, -1) });

export type BuildResult = { ok: true; record: QueuedEvent; notes: string[] } | { ok: false; error: InvalidEventError };

/** About 1 MB: the real server answers 413 for a single event above it. */
export const DEFAULT_MAX_EVENT_BYTES = 1_000_000;

/**
 * @param sdkProperties properties the SDK adds ($lib, $groups, …). They win over the caller's
 *   properties of the same name, and are assumed JSON-safe.
 * @param shared properties the SDK adds to many events, already serialised (see SharedProperties).
 */
export function buildEvent(
  input: EventInput,
  sdkProperties: Record<string, unknown>,
  maxEventBytes: number = DEFAULT_MAX_EVENT_BYTES,
  now: number = Date.now(),
  shared?: SharedProperties,
): BuildResult {
  const name = input.event;
  const label = typeof name === 'string' ? name : undefined;
  // Every refusal names what was wrong, what arrived instead, and that nothing was queued.
  const fail = (message: string, got: unknown, reason: 'invalid' | 'too_large' = 'invalid'): BuildResult => ({
    ok: false,
    error: new InvalidEventError(
      message + (reason === 'invalid' ? '; got ' + describe(got) : '') + '. The event was not queued.',
      reason,
      label,
    ),
  });

  if (!isText(name)) {
    return fail(`capture() needs an event name`, name);
  }
  const notes: string[] = [];

  const distinctId = asText(input.distinctId);
  if (distinctId !== input.distinctId) notes.push(`number distinct id ${distinctId} sent as a string`);
  if (!isText(distinctId)) {
    return fail(`"${name}" needs a distinct id as a non-blank string`, input.distinctId);
  }

  const userProperties = input.properties ?? {};
  // A Map or Set serialises to {} and would lose every entry without a word: refused like an array.
  if (
    typeof userProperties !== 'object' ||
    Array.isArray(userProperties) ||
    userProperties instanceof Map ||
    userProperties instanceof Set
  ) {
    return fail(`"${name}" properties must be a plain object`, input.properties);
  }

  const oversized = largestCollection(userProperties, maxEventBytes);
  if (oversized) {
    // Serialising ten million elements to learn they are too many would block the caller for seconds.
    return fail(`"${name}" property ${oversized} has too many elements for the ${maxEventBytes}-byte limit; send less`, 0, 'too_large');
  }

  let timestamp: string;
  if (input.timestamp === undefined || input.timestamp === null) {
    timestamp = isoTimestamp(now);
  } else {
    // Before 1973 in ms, now in seconds: surely seconds, and unfixable once sent.
    const seconds = typeof input.timestamp === 'number' && Math.abs(input.timestamp) < 1e11;
    const parsed = seconds ? undefined : parseTimestamp(input.timestamp);
    if (parsed === undefined) {
      return fail(
        `"${name}" timestamp must be a Date, an ISO 8601 string or epoch milliseconds${seconds ? ' (epoch seconds? multiply by 1000)' : ''}`,
        input.timestamp,
      );
    }
    timestamp = parsed;
  }

  let uuid: string;
  if (input.uuid === undefined || input.uuid === null) {
    uuid = uuidv7(now);
  } else if (isUuid(input.uuid)) {
    uuid = input.uuid.toLowerCase();
  } else {
    return fail(`"${name}" uuid must be a UUID`, input.uuid);
  }

  const properties = mergeProperties(userProperties as Record<string, unknown>, sdkProperties, distinctId, notes, shared);
  if (properties === undefined) {
    // A Date, a boxed primitive, or a toJSON() that returns no object: there is no property to keep.
    return fail(`"${name}" properties must be a plain object`, userProperties);
  }
  const json =
    '{"uuid":"' +
    uuid +
    '","event":' +
    JSON.stringify(name) +
    ',"distinct_id":' +
    JSON.stringify(distinctId) +
    ',"properties":' +
    properties +
    ',"timestamp":"' +
    timestamp +
    '"}';

  // Most events are far below the limit in any encoding; count UTF-8 bytes only when it could matter
  // (then encoding once costs little next to sending a megabyte).
  if (json.length * 3 > maxEventBytes) {
    const bytes = new TextEncoder().encode(json).length;
    if (bytes > maxEventBytes) {
      return fail(`"${name}" is ${bytes} bytes, over the ${maxEventBytes}-byte limit; send less`, 0, 'too_large');
    }
  }
  return { ok: true, record: { uuid: json.slice(9, 45), json: flatten(json) }, notes };
}

/**
 * The name of a top-level property holding an array or typed array so long that its JSON (at least
 * two characters an element) cannot fit the limit, checked before serialising anything.
 */
function largestCollection(properties: object, maxEventBytes: number): string | undefined {
  for (const key in properties) {
    const value: unknown = (properties as Record<string, unknown>)[key];
    if (typeof value !== 'object' || value === null) continue;
    const length = Array.isArray(value) || ArrayBuffer.isView(value) ? (value as { length?: number }).length : undefined;
    if (typeof length === 'number' && length * 2 > maxEventBytes) return key;
  }
  return undefined;
}

/**
 * V8 keeps a concatenation as a rope, one node per `+`; a queue of 100,000 ropes cost about 1.5 KB
 * per event and half of capture()'s CPU in garbage collection. Converting a string to a number
 * flattens it in place (the number is discarded); the rope's pieces then die young.
 */
function flatten(text: string): string {
  void Number(text);
  return text;
}

// toISOString costs about a microsecond; many events share a millisecond.
let lastStampMs = -1;
let lastStamp = '';
function isoTimestamp(ms: number): string {
  if (ms !== lastStampMs) {
    lastStampMs = ms;
    lastStamp = new Date(ms).toISOString();
  }
  return lastStamp;
}

/**
 * Splices the SDK's properties into the caller's JSON instead of copying the caller's object: on
 * the hot path that copy cost more than the rest of capture(). When a name collides (or the object
 * has its own toJSON, whose keys cannot be known before it runs), it merges parsed objects so the
 * JSON never has duplicate keys. A caller's `$distinct_id` is left out: the server refuses an object
 * carrying both it and `distinct_id` (docs/wire-protocol.md, "Events"). Undefined when the properties are no JSON object.
 */
function mergeProperties(
  user: Record<string, unknown>,
  sdk: Record<string, unknown>,
  distinctId: string,
  notes: string[],
  shared?: SharedProperties,
): string | undefined {
  const own = serializeProperties(user);
  notes.push(...own.notes);
  if (own.json?.[0] !== '{') return undefined; // undefined too, from a toJSON() that returned nothing
  const sharedKey = (key: string) => !!shared && key in shared.props;
  if (
    'distinct_id' in user ||
    '$distinct_id' in user ||
    'toJSON' in user ||
    Object.keys(sdk).some((key) => key in user || sharedKey(key)) ||
    Object.keys(user).some(sharedKey)
  ) {
    const merged = { distinct_id: distinctId, ...shared?.props, ...JSON.parse(own.json), ...sdk };
    merged.distinct_id = distinctId; // over the caller's, keeping the first place
    delete merged.$distinct_id;
    return JSON.stringify(merged);
  }
  const idJson = '{"distinct_id":' + JSON.stringify(distinctId);
  return (
    (own.json === '{}' ? idJson : idJson + ',' + own.json.slice(1, -1)) + (shared?.json ? ',' + shared.json : '') + sdkFragment(sdk) + '}'
  );
}

// Server clients pass one frozen object for most events: serialised once. A page's change every
// task, so the script tag drops this cache (it keeps the timestamp one: a burst of captures shares
// a millisecond there too).
let lastSdk: Record<string, unknown> | undefined;
let lastSdkFragment = '';
function sdkFragment(sdk: Record<string, unknown>): string {
  if (!BROWSER_BUILD && sdk === lastSdk && Object.isFrozen(sdk)) return lastSdkFragment;
  const json = JSON.stringify(sdk);
  const fragment = json === '{}' ? '' : ',' + json.slice(1, -1);
  if (!BROWSER_BUILD) {
    lastSdk = sdk;
    lastSdkFragment = fragment;
  }
  return fragment;
}

/**
 * ISO 8601 only: `Date` also reads free text ("March 7") and zoneless date-times in the process's
 * local zone, so the same string would mean different instants on different servers. A zoneless
 * date-time is read as UTC, as the PostHog server reads it.
 */
const ISO_8601 = /^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/i;

function parseTimestamp(value: unknown): string | undefined {
  let input = value;
  if (typeof value === 'string') {
    const match = ISO_8601.exec(value.trim());
    if (!match) return undefined;
    input = match[1] && !match[4] ? match[0] + 'Z' : match[0];
  } else if (!(value instanceof Date) && typeof value !== 'number') {
    return undefined;
  }
  // toISOString throws for an invalid Date (an impossible date, a non-finite number): refused too.
  return attempt(() => new Date(input as string).toISOString(), undefined);
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return value === '' ? 'an empty string' : `the string ${JSON.stringify(value.slice(0, 80))}`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? `the number ${value}` : String(value);
  const kind = typeof value === 'object' && (value as object).constructor?.name;
  return kind && kind !== 'Object' ? `a ${kind}` : `a${typeof value === 'object' ? 'n' : ''} ${typeof value}`;
}
