/**
 * posthog-js sends parts of its rrweb events gzip'd (marked `cv: '2024-10'`): a full snapshot's
 * `data`, and a DOM mutation's `texts`, `attributes`, `removes` and `adds` (a style rule's `adds`
 * and `removes`), each as the gzip bytes in a Latin-1 string. PostHog's player unpacks them; rrweb's
 * does not, so `hogtail dev` unpacks them before playing, and a recording made by posthog-js plays
 * as one made by hogtail. A field that does not unpack is left as it was.
 */
import { gunzipSync } from 'node:zlib';

const COMPRESSED_FIELDS = ['texts', 'attributes', 'removes', 'adds'];

function unpack(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(gunzipSync(Buffer.from(value, 'latin1')).toString('utf8')) as unknown;
  } catch {
    return value;
  }
}

/** The event as rrweb records it: unpacked when posthog-js packed it, else the same object. */
export function unpackPosthogEvent<T extends { type: number; data?: unknown; cv?: unknown }>(event: T): T {
  if (event.cv !== '2024-10') return event;
  const { cv: _packed, ...rest } = event;
  if (typeof rest.data === 'string') return { ...rest, data: unpack(rest.data) } as T;
  if (typeof rest.data !== 'object' || rest.data === null) return rest as T;
  const data: Record<string, unknown> = { ...(rest.data as Record<string, unknown>) };
  for (const field of COMPRESSED_FIELDS) if (field in data) data[field] = unpack(data[field]);
  return { ...rest, data } as T;
}
