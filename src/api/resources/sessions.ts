/** Session property helpers (docs/management-api.md). The spec documents no bodies, so results are `unknown` unless typed by the caller. */
import type { Requester } from '../request';
import type { QueryParams, RequestOptions } from '../types';

export interface SessionsApi {
  propertyDefinitions<T = unknown>(params?: QueryParams, options?: RequestOptions): Promise<T>;
  /** PostHog takes e.g. `{ key: '$entry_current_url' }`. */
  values<T = unknown>(params?: QueryParams, options?: RequestOptions): Promise<T>;
}

export function createSessionsApi(requester: Requester): SessionsApi {
  return {
    propertyDefinitions: async <T>(params?: QueryParams, options?: RequestOptions) =>
      requester.json<T>(
        { endpoint: 'sessions.propertyDefinitions', method: 'GET', path: '/sessions/property_definitions/', query: params },
        options,
      ),
    values: async <T>(params?: QueryParams, options?: RequestOptions) =>
      requester.json<T>({ endpoint: 'sessions.values', method: 'GET', path: '/sessions/values/', query: params }, options),
  };
}
