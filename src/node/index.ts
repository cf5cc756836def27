/**
 * `hogtail/node`: the server client on Node (node:http, zlib, file persistence, exit hooks), with
 * posthog-node's class name and option names, and its error and message types.
 */
export { PostHog, PostHog as Hogtail } from './client';
export type {
  AliasMessage,
  EventMessage,
  GroupIdentifyMessage,
  IdentifyMessage,
  ScreenMessage,
  SurveyMessage,
  SurveySentMessage,
} from './client';
export type { PostHogOptions } from './options';
export { DroppedEventsError, HogtailError, InvalidEventError, TransportError } from '../core/errors';
export type { DropReason } from '../core/errors';
export type { QueueStats } from '../core/queue';
export type { HttpExecutor, HttpRequest, HttpResponse } from '../core/transport';
export { LIB_VERSION } from '../core/version';
export { PersistenceError } from './persistence/errors';
export type { PersistenceProblem } from './persistence/errors';
export type { FilePersistenceOptions, PersistenceOption } from './persistence/options';
export type { FlagOptions } from '../core/server/feature-flags';
export type { BeforeSendEvent, BeforeSendFn } from '../core/server/messages';
export type { FetchLike } from '../core/server/options';
export type { FlagValue } from '../core/flags/decide';
