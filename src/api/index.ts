/**
 * `hogtail/api`: a typed client for the environments management API. Server-side only by default:
 * it refuses to start in a browser unless `allowBrowser: true`.
 *
 * Downloads: `exports.contentStream()` returns the web ReadableStream from fetch, which browsers and
 * Node ≥ 18 share, so this entry needs no Node-specific code. In Node, pipe it with
 * `Readable.fromWeb(stream)` from `node:stream`.
 */
export {
  createApiClient,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  type ApiClient,
  type ApiClientOptions,
} from './client';
export { ApiBrowserError, ApiError, ApiNetworkError, ApiTimeoutError, type ApiErrorInit, type HttpMethod } from './errors';
export { ENDPOINT_SCOPES, scopeFor, type EndpointId, type Scope } from './scopes';
export type { FetchLike } from './request';
export type { ListMethod, OffsetListMethod } from './list-method';
export type { ExplicitMembersApi } from './resources/explicit-members';
export type { ExportsApi } from './resources/exports';
export type { GroupsApi } from './resources/groups';
export type { QueryApi } from './resources/query';
export type { SessionRecordingsApi } from './resources/session-recordings';
export type { SessionsApi } from './resources/sessions';
export type { SubscriptionsApi } from './resources/subscriptions';
export type * from './types';
