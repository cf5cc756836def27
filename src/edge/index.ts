/**
 * `hogtail/edge`: the same server client on web APIs only (fetch, CompressionStream, Web Crypto),
 * for Workers, Vercel Edge, Deno and Bun's web mode: no node: import, no process, no file persistence.
 */
export { PostHog, PostHog as Hogtail } from './client';
export type { PostHogOptions } from './client';
export type {
  AliasMessage,
  BeforeSendEvent,
  BeforeSendFn,
  EventMessage,
  GroupIdentifyMessage,
  IdentifyMessage,
  ScreenMessage,
  SurveyMessage,
  SurveySentMessage,
} from '../core/server/messages';
export type { FlagOptions } from '../core/server/feature-flags';
export type { FetchLike } from '../core/server/options';
export { DroppedEventsError, HogtailError, InvalidEventError, TransportError } from '../core/errors';
export type { DropReason } from '../core/errors';
export type { QueueStats } from '../core/queue';
export type { HttpExecutor, HttpRequest, HttpResponse } from '../core/transport';
export type { FlagValue } from '../core/flags/decide';
export { LIB_VERSION } from '../core/version';
