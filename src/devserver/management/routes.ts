/**
 * The endpoints of docs/management-api.md, each with the scope it requires. The scope column is
 * written out here rather than imported from the client, so the client's own table is checked
 * against an independent copy when the two talk.
 */
import type { ExplicitMember, Group, SessionRecording, SharingConfiguration } from '../../api/types';
import { renderExportContent } from './content';
import { errorReply, type Reply } from './http';
import { cursorPage, offsetPage } from './paging';
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

export interface Endpoint {
  scope: string | null;
  handle: (context: RouteContext) => Reply | Promise<Reply>;
}

export interface Route {
  /** Matched against the path below `/api/environments/{project_id}/`. */
  pattern: RegExp;
  methods: Partial<Record<Method, Endpoint>>;
}

const EXPORT_FORMATS = ['text/csv', 'image/png', 'application/pdf'];
const EXTENSIONS: Record<string, string> = { 'text/csv': 'csv', 'image/png': 'png', 'application/pdf': 'pdf' };

const notFound = (): Reply => errorReply(404, 'invalid_request', 'not_found', 'Not found.');
const invalid = (attr: string, detail: string, code = 'invalid'): Reply =>
  errorReply(400, 'validation_error', code, detail, attr);

const ok = (json: unknown, status = 200): Reply => ({ status, json });

export const ROUTES: Route[] = [
  {
    pattern: /^explicit_members\/([^/]+)\/$/,
    methods: {
      GET: { scope: null, handle: ({ params, store }) => withMember(store, params[0], (member) => ok(member)) },
      PATCH: {
        scope: null,
        handle: ({ params, store, body, now }) =>
          withMember(store, params[0], (member) => {
            const changes = asObject(body);
            if (changes === undefined) return invalid('non_field_errors', 'Expected a JSON object.');
            if ('level' in changes && !isInteger(changes['level'])) return invalid('level', 'A valid integer is required.');
            if ('user_uuid' in changes && typeof changes['user_uuid'] !== 'string') {
              return invalid('user_uuid', 'Must be a valid UUID.');
            }
            if (isInteger(changes['level'])) {
              member.level = changes['level'];
              member.effective_level = Math.max(member.parent_level, member.level);
            }
            if (typeof changes['user_uuid'] === 'string') member.user_uuid = changes['user_uuid'];
            member.updated_at = now().toISOString();
            return ok(member);
          }),
      },
      DELETE: {
        scope: null,
        handle: ({ params, store }) =>
          withMember(store, params[0], (member) => {
            store.members.delete(member.user.uuid);
            return { status: 204 };
          }),
      },
    },
  },
  {
    pattern: /^exports\/$/,
    methods: {
      GET: {
        scope: 'export:read',
        handle: ({ store, url }) => ok(offsetPage([...store.exports.values()].sort((a, b) => a.id - b.id), url)),
      },
      POST: { scope: 'export:write', handle: createExport },
    },
  },
  {
    pattern: /^exports\/([^/]+)\/$/,
    methods: {
      GET: { scope: 'export:read', handle: ({ params, store }) => withExport(store, params[0], (asset) => ok(asset)) },
    },
  },
  {
    pattern: /^exports\/([^/]+)\/content\/$/,
    methods: {
      GET: {
        scope: 'export:read',
        handle: ({ params, store }) =>
          withExport(store, params[0], (asset) => {
            const content = renderExportContent(asset, store.exportContents.get(String(asset.id)));
            return {
              status: 200,
              bytes: content.bytes,
              contentType: content.contentType,
              headers: { 'Content-Disposition': `attachment; filename="${asset.filename.replace(/["\\\r\n]/g, '_')}"` },
            };
          }),
      },
    },
  },
  {
    pattern: /^groups\/$/,
    methods: {
      GET: {
        scope: 'group:read',
        handle: async ({ url, store, groupPageSize }) => {
          const typeIndex = url.searchParams.get('group_type_index');
          if (typeIndex === null || !/^\d+$/.test(typeIndex)) {
            return invalid('group_type_index', 'You must pass a valid group_type_index.', 'required');
          }
          const search = (url.searchParams.get('search') ?? '').toLowerCase();
          const groups = (await store.groups(Number(typeIndex)))
            .filter((group) => group.group_type_index === Number(typeIndex))
            .filter((group) => search === '' || groupText(group).includes(search));
          const sorted = [...groups].sort((a, b) => compare(groupSortKey(a), groupSortKey(b)));
          return ok(cursorPage(sorted, url, groupPageSize, groupSortKey));
        },
      },
    },
  },
  {
    pattern: /^groups\/find\/$/,
    methods: {
      GET: {
        scope: null,
        handle: async ({ url, store }) => {
          const key = url.searchParams.get('group_key');
          const typeIndex = url.searchParams.get('group_type_index');
          if (typeIndex === null || !/^\d+$/.test(typeIndex)) {
            return invalid('group_type_index', 'You must pass a valid group_type_index.', 'required');
          }
          if (key === null || key === '') return invalid('group_key', 'You must pass group_key.', 'required');
          const group = (await store.groups(Number(typeIndex))).find(
            (candidate) => candidate.group_type_index === Number(typeIndex) && candidate.group_key === key,
          );
          return group === undefined ? notFound() : ok(group);
        },
      },
    },
  },
  {
    pattern: /^query\/draft_sql\/$/,
    methods: {
      GET: {
        scope: null,
        handle: () =>
          ok({
            sql: 'SELECT event, count() AS events FROM events WHERE timestamp > now() - INTERVAL 7 DAY GROUP BY event ORDER BY events DESC',
          }),
      },
    },
  },
  {
    pattern: /^session_recordings\/$/,
    methods: {
      GET: {
        scope: 'session_recording:read',
        handle: ({ store, url }) =>
          ok(
            offsetPage(
              [...store.recordings.values()].sort((a, b) => compare(b.start_time, a.start_time) || compare(a.id, b.id)),
              url,
            ),
          ),
      },
    },
  },
  {
    pattern: /^session_recordings\/([^/]+)\/$/,
    methods: {
      GET: {
        scope: 'session_recording:read',
        handle: ({ params, store }) => withRecording(store, params[0], (recording) => ok(recording)),
      },
      PATCH: {
        scope: 'session_recording:write',
        handle: ({ params, store, body }) =>
          withRecording(store, params[0], (recording) => {
            const changes = asObject(body);
            if (changes === undefined) return invalid('non_field_errors', 'Expected a JSON object.');
            if ('person' in changes) {
              const person = asObject(changes['person']);
              if (person === undefined) return invalid('person', 'Expected a JSON object.');
              Object.assign(recording.person, person);
            }
            return ok(recording);
          }),
      },
      DELETE: {
        scope: 'session_recording:write',
        handle: ({ params, store }) =>
          withRecording(store, params[0], (recording) => {
            store.recordings.delete(recording.id);
            store.sharing.delete(recording.id);
            return { status: 204 };
          }),
      },
    },
  },
  {
    pattern: /^session_recordings\/([^/]+)\/sharing\/$/,
    methods: {
      GET: {
        scope: 'sharing_configuration:read',
        handle: ({ params, store }) =>
          withRecording(store, params[0], (recording) => ok(sharingOf(store, recording))),
      },
    },
  },
  {
    pattern: /^sessions\/property_definitions\/$/,
    methods: {
      GET: {
        scope: null,
        handle: ({ url }) => {
          const search = (url.searchParams.get('search') ?? '').toLowerCase();
          const results = SESSION_PROPERTIES.filter((property) => property.name.toLowerCase().includes(search));
          return ok({ count: results.length, results });
        },
      },
    },
  },
  {
    pattern: /^sessions\/values\/$/,
    methods: {
      GET: {
        scope: null,
        handle: ({ url, store }) => {
          const key = url.searchParams.get('key');
          const values =
            key === '$entry_current_url'
              ? [...new Set([...store.recordings.values()].map((recording) => recording.start_url))]
              : key === '$channel_type'
                ? ['Direct', 'Organic Search', 'Paid Search', 'Referral']
                : [];
          return ok(values.sort().map((name) => ({ name })));
        },
      },
    },
  },
  {
    pattern: /^subscriptions\/$/,
    methods: {
      GET: {
        scope: 'subscription:read',
        handle: ({ store, url }) => ok(offsetPage(store.subscriptions.filter((subscription) => !subscription.deleted), url)),
      },
    },
  },
];

const SESSION_PROPERTIES = [
  { name: '$session_duration', property_type: 'Numeric', is_numerical: true },
  { name: '$entry_current_url', property_type: 'String', is_numerical: false },
  { name: '$entry_pathname', property_type: 'String', is_numerical: false },
  { name: '$exit_current_url', property_type: 'String', is_numerical: false },
  { name: '$pageview_count', property_type: 'Numeric', is_numerical: true },
  { name: '$channel_type', property_type: 'String', is_numerical: false },
  { name: '$is_bounce', property_type: 'Boolean', is_numerical: false },
];

function createExport({ body, store, now }: RouteContext): Reply {
  const input = asObject(body);
  if (input === undefined) return invalid('non_field_errors', 'Expected a JSON object.');
  const format = input['export_format'];
  if (typeof format !== 'string' || !EXPORT_FORMATS.includes(format)) {
    return invalid('export_format', `"${String(format)}" is not a valid choice; use one of ${EXPORT_FORMATS.join(', ')}.`, 'invalid_choice');
  }
  if (!isInteger(input['dashboard']) && !isInteger(input['insight'])) {
    return invalid('non_field_errors', 'Either dashboard or insight is required for an export.');
  }
  const id = store.nextExportId();
  const created = now();
  const expires = typeof input['expires_after'] === 'string' ? input['expires_after'] : new Date(created.getTime() + 6 * 30 * 86_400_000).toISOString();
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

function withMember(store: ManagementStore, uuid: string | undefined, then: (member: ExplicitMember) => Reply): Reply {
  const member = uuid === undefined ? undefined : store.members.get(uuid);
  return member === undefined ? notFound() : then(member);
}

function withExport(store: ManagementStore, raw: string | undefined, then: (asset: NonNullable<ReturnType<ManagementStore['exports']['get']>>) => Reply): Reply {
  if (raw === undefined || !/^\d+$/.test(raw)) return notFound();
  const asset = store.exports.get(Number(raw));
  return asset === undefined ? notFound() : then(asset);
}

function withRecording(store: ManagementStore, id: string | undefined, then: (recording: SessionRecording) => Reply): Reply {
  const recording = id === undefined ? undefined : store.recordings.get(id);
  return recording === undefined ? notFound() : then(recording);
}

function sharingOf(store: ManagementStore, recording: SessionRecording): SharingConfiguration {
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
function groupSortKey(group: Group): string {
  const time = Date.parse(group.created_at);
  const inverted = String(9_000_000_000_000_000 - (Number.isNaN(time) ? 0 : time)).padStart(16, '0');
  return `${inverted}\u0000${group.group_key}`;
}

function groupText(group: Group): string {
  const name = asObject(group.group_properties)?.['name'];
  return `${group.group_key} ${typeof name === 'string' ? name : ''}`.toLowerCase();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}
