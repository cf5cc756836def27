/** Groups of one group type, in cursor pages. */
import { createListMethod, type ListMethod } from '../list-method';
import { optionalString, requireInteger, requireString } from '../paths';
import type { Requester } from '../request';
import type { CursorPage, Group, GroupsFindParams, GroupsListParams, QueryParams, RequestOptions } from '../types';

export interface GroupsApi {
  /** Throws TypeError, before any request, when `group_type_index` is missing (spec rule 2). */
  list: ListMethod<GroupsListParams, CursorPage<Group>, Group>;
  /** One group by key. The spec documents no response body; PostHog answers with the Group. */
  find(params: GroupsFindParams, options?: RequestOptions): Promise<Group>;
}

export function createGroupsApi(requester: Requester): GroupsApi {
  return {
    list: createListMethod<GroupsListParams, CursorPage<Group>, Group>(requester, {
      endpoint: 'groups.list',
      path: '/groups/',
      toQuery: groupsListQuery,
      keyOf: (group) => `${group.group_type_index}\u0000${group.group_key}`,
    }),
    find: async (params, options) =>
      requester.json({ endpoint: 'groups.find', method: 'GET', path: '/groups/find/', query: groupsFindQuery(params) }, options),
  };
}

function groupsListQuery(params: GroupsListParams): QueryParams {
  if (params === null || typeof params !== 'object' || params.group_type_index === undefined) {
    throw new TypeError(
      'groups.list needs group_type_index (the group type to list, e.g. { group_type_index: 0 }); ' +
        'valid types come from /api/:project_id/groups_types/',
    );
  }
  return {
    group_type_index: requireInteger(params.group_type_index, 'group_type_index', 0),
    cursor: optionalString(params.cursor, 'cursor'),
    search: optionalString(params.search, 'search'),
  };
}

function groupsFindQuery(params: GroupsFindParams): QueryParams {
  if (params === null || typeof params !== 'object') {
    throw new TypeError('groups.find needs { group_key, group_type_index }');
  }
  return {
    group_key: requireString(params.group_key, 'group_key'),
    group_type_index: requireInteger(params.group_type_index, 'group_type_index', 0),
  };
}
