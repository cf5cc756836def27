/**
 * Every field read back from storage is checked before use: stored state may be corrupted (a bug
 * of an older version, another script writing the key, a page whose Prototype.js-style toJSON
 * rewrote arrays as strings), and one bad field (a session id stored as a string) must not break
 * every capture for good. A bad field is replaced by its default, once (the state is saved back),
 * and named to `onBad` so it is reported and counted.
 */
import { isObject, isText } from '../../core/special-events';
import { isPageInfo } from '../capture/event-properties/campaign';

const isStringRecord = (value: unknown) => isObject(value) && Object.values(value).every((v) => typeof v === 'string');

/** What each field must be to be used (distinct_id is required, the others may be absent). */
const CHECKS: Record<string, (value: unknown) => boolean> = {
  distinct_id: isText,
  $device_id: isText,
  $user_state: (value) => value === 'anonymous' || value === 'identified',
  props: isObject,
  $groups: isStringRecord,
  $epp: (value) => typeof value === 'boolean',
  optout: (value) => typeof value === 'boolean',
  aco: (value) => typeof value === 'boolean',
  sid: (value) =>
    Array.isArray(value) && value.length === 3 && isText(value[0]) && typeof value[1] === 'number' && typeof value[2] === 'number',
  ff: (value) => isObject(value) && isObject(value.flags) && isObject(value.payloads),
  fo: (value) => isObject(value) && isObject(value.flags) && isObject(value.payloads),
  fc: (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  fp: isObject,
  fg: (value) => isObject(value) && Object.values(value).every(isObject),
  ipi: isPageInfo,
  ipl: isObject,
  fb: (value) => isObject(value) && Object.values(value).every((id) => Array.isArray(id) && typeof id[0] === 'string'),
  se: (value) => Array.isArray(value) && isText(value[0]) && isPageInfo(value[1]),
};

/**
 * The stored record with every bad field removed (so the caller's defaults apply: a fresh
 * anonymous id for a bad distinct id), or undefined when nothing was stored or it is no object.
 * `onBad` hears each bad field.
 */
export function checkState(saved: unknown, onBad: (field: string, value: unknown) => void): Record<string, unknown> | undefined {
  if (saved === undefined) return undefined;
  if (!isObject(saved)) {
    onBad('state', saved);
    return undefined;
  }
  const kept: Record<string, unknown> = { ...saved };
  for (const field in CHECKS) {
    if ((field === 'distinct_id' || kept[field] !== undefined) && !CHECKS[field]!(kept[field])) {
      onBad(field, kept[field]);
      delete kept[field];
    }
  }
  return kept;
}
