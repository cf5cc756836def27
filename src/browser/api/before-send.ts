/**
 * The app's last word on each event, in posthog-js's order: sanitize_properties rewrites the
 * properties, property_denylist removes names, then each before_send sees the whole event and
 * returns it (changed or not) or null to drop it. Only events of a page that sets one of these
 * take this path: it builds the full property object that the fast path never needs.
 */
import type { EventInput } from '../../core/event';
import { HogtailError } from '../../core/errors';
import { uuidv7 } from '../../core/uuid';
import type { Runtime } from '../runtime';
import type { CaptureResult, Properties } from '../types';
import { textOf } from '../../core/text-of';

/** The event as the app's hooks left it, or null when a before_send dropped it. */
export function applyHooks(rt: Runtime, input: EventInput, sdk: Properties, now: number): EventInput | null {
  const { before_send, sanitize_properties, property_denylist, property_blacklist } = rt.config_;
  const event = input.event as string;
  let properties: Properties = { ...sdk, ...(input.properties as Properties), distinct_id: input.distinctId };
  // A hook that throws is reported and skipped: the event is kept as it was, never lost to a bug.
  const run = <T>(name: string, fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (error) {
      rt.report_(new HogtailError(`${name} threw (${textOf(error)}); the event is sent without it`));
      return fallback;
    }
  };
  if (sanitize_properties) properties = run('sanitize_properties', () => sanitize_properties(properties, event), properties);
  // posthog-js's older name still works, with the new one's names too; a list that is not one is skipped.
  for (const list of [property_blacklist, property_denylist]) if (Array.isArray(list)) for (const name of list) delete properties[name];
  let result: CaptureResult | null = {
    uuid: (input.uuid as string | undefined) ?? uuidv7(now),
    event,
    properties,
    // Left as the caller gave it: buildEvent validates it after the hooks.
    timestamp: (input.timestamp as Date | undefined) ?? new Date(now),
  };
  for (const hook of [before_send].flat()) {
    const current: CaptureResult = result;
    if (hook) result = run('before_send', () => hook(current), current);
    if (!result) return null;
  }
  const { distinct_id, ...rest } = Object(result.properties) as Properties;
  return {
    event: result.event,
    distinctId: distinct_id ?? input.distinctId,
    properties: rest,
    timestamp: result.timestamp,
    uuid: result.uuid,
  };
}
