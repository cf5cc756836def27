/** Query helper (docs/management-api.md). The spec documents neither parameters nor body, so both stay open. */
import type { Requester } from '../request';
import type { QueryParams, RequestOptions } from '../types';

export interface QueryApi {
  /** PostHog takes e.g. `{ prompt }` and answers `{ sql }`; the spec documents no body, hence `unknown`. */
  draftSql<T = unknown>(params?: QueryParams, options?: RequestOptions): Promise<T>;
}

export function createQueryApi(requester: Requester): QueryApi {
  return {
    draftSql: async <T>(params?: QueryParams, options?: RequestOptions) =>
      requester.json<T>({ endpoint: 'query.draftSql', method: 'GET', path: '/query/draft_sql/', query: params }, options),
  };
}
