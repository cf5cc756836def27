/**
 * The endpoints of docs/management-api.md, each with the scope it requires. The scope column is
 * written out here rather than imported from the client, so the client's own table is checked
 * against an independent copy when the two talk.
 */
import { renderExportContent } from './content';
import type { Reply } from './http';
import { cursorPage, offsetPage } from './paging';
import {
  asObject,
  compare,
  createExport,
  groupSortKey,
  groupText,
  invalid,
  isInteger,
  notFound,
  ok,
  sharingOf,
  SESSION_PROPERTIES,
  withExport,
  withMember,
  withRecording,
  type Method,
  type RouteContext,
} from './route-kit';

export type { Method, RouteContext } from './route-kit';

export interface Endpoint {
  scope: string | null;
  handle: (context: RouteContext) => Reply | Promise<Reply>;
}

export interface Route {
  /** Matched against the path below `/api/environments/{project_id}/`. */
  pattern: RegExp;
  methods: Partial<Record<Method, Endpoint>>;
}

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
        handle: ({ store, url }) =>
          ok(
            offsetPage(
              [...store.exports.values()].sort((a, b) => a.id - b.id),
              url,
            ),
          ),
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
        handle: ({ params, store }) => withRecording(store, params[0], (recording) => ok(sharingOf(store, recording))),
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
        handle: ({ store, url }) =>
          ok(
            offsetPage(
              store.subscriptions.filter((subscription) => !subscription.deleted),
              url,
            ),
          ),
      },
    },
  },
];
