/**
 * What the management endpoints share: the request context a route gets, the reply shorthands, the
 * lookups that answer 404 for an unknown id, export creation, and the group ordering.
 */
import type { ExplicitMember, Group, SessionRecording, SharingConfiguration } from '../../api/types';
import { errorReply, type Reply } from './http';
import type { ManagementStore } from './store';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteContext {
  /** Decoded path parameters, in order. */
  params: string[];
  /** The request's public URL (what page links are built from). */
  url: URL;
  body: unknown;
  store: ManagementStore;
  groupPageSize: number;
  /** Server time; a function so tests of the server could pin it. */
  now: () => Date;
}

const EXPORT_FORMATS = ['text/csv', 'image/png', 'application/pdf'];
const EXTENSIONS: Record<string, string> = { 'text/csv': 'csv', 'image/png': 'png', 'application/pdf': 'pdf' };

export const notFound = (): Reply => errorReply(404, 'invalid_request', 'not_found', 'Not found.');
export const invalid = (attr: string, detail: string, code = 'invalid'): Reply => errorReply(400, 'validation_error', code, detail, attr);

export const ok = (json: unknown, status = 200): Reply => ({ status, json });

export const SESSION_PROPERTIES = [
  { name: '$session_duration', property_type: 'Numeric', is_numerical: true },
  { name: '$entry_current_url', property_type: 'String', is_numerical: false },
  { name: '$entry_pathname', property_type: 'String', is_numerical: false },
  { name: '$exit_current_url', property_type: 'String', is_numerical: false },
  { name: '$pageview_count', property_type: 'Numeric', is_numerical: true },
  { name: '$channel_type', property_type: 'String', is_numerical: false },
  { name: '$is_bounce', property_type: 'Boolean', is_numerical: false },
];

export function createExport({ body, store, now }: RouteContext): Reply {
  const input = asObject(body);
  if (input === undefined) return invalid('non_field_errors', 'Expected a JSON object.');
  const format = input['export_format'];
  if (typeof format !== 'string' || !EXPORT_FORMATS.includes(format)) {
    return invalid(
      'export_format',
      `"${String(format)}" is not a valid choice; use one of ${EXPORT_FORMATS.join(', ')}.`,
      'invalid_choice',
    );
  }
  if (!isInteger(input['dashboard']) && !isInteger(input['insight'])) {
    return invalid('non_field_errors', 'Either dashboard or insight is required for an export.');
  }
  const id = store.nextExportId();
  const created = now();
  const expires =
    typeof input['expires_after'] === 'string' ? input['expires_after'] : new Date(created.getTime() + 6 * 30 * 86_400_000).toISOString();
  const asset = {
    id,
    dashboard: isInteger(input['dashboard']) ? input['dashboard'] : 0,
    insight: isInteger(input['insight']) ? input['insight'] : 0,
    export_format: format,
    created_at: created.toISOString(),
    has_content: 'true',
    export_context: input['export_context'] ?? null,
    filename: `export-${id}.${EXTENSIONS[format] ?? 'bin'}`,
    expires_after: expires,
  };
  store.exports.set(id, asset);
  return ok(asset, 201);
}

export function withMember(store: ManagementStore, uuid: string | undefined, then: (member: ExplicitMember) => Reply): Reply {
  const member = uuid === undefined ? undefined : store.members.get(uuid);
  return member === undefined ? notFound() : then(member);
}

export function withExport(
  store: ManagementStore,
  raw: string | undefined,
  then: (asset: NonNullable<ReturnType<ManagementStore['exports']['get']>>) => Reply,
): Reply {
  if (raw === undefined || !/^\d+$/.test(raw)) return notFound();
  const asset = store.exports.get(Number(raw));
  return asset === undefined ? notFound() : then(asset);
}

export function withRecording(store: ManagementStore, id: string | undefined, then: (recording: SessionRecording) => Reply): Reply {
  const recording = id === undefined ? undefined : store.recordings.get(id);
  return recording === undefined ? notFound() : then(recording);
}

export function sharingOf(store: ManagementStore, recording: SessionRecording): SharingConfiguration {
  const existing = store.sharing.get(recording.id);
  if (existing !== undefined) return existing;
  const created: SharingConfiguration = {
    created_at: recording.end_time,
    enabled: false,
    access_token: `shr_${recording.id.replace(/-/g, '').slice(-16)}`,
  };
  store.sharing.set(recording.id, created);
  return created;
}

/** Newest first, ties broken by key: unique and total, as a keyset cursor needs. */
export function groupSortKey(group: Group): string {
  const time = Date.parse(group.created_at);
  const inverted = String(9_000_000_000_000_000 - (Number.isNaN(time) ? 0 : time)).padStart(16, '0');
  return `${inverted}\u0000${group.group_key}`;
}

export function groupText(group: Group): string {
  const name = asObject(group.group_properties)?.['name'];
  return `${group.group_key} ${typeof name === 'string' ? name : ''}`.toLowerCase();
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}
