/**
 * What every server entry exports besides its own client and options: the shared message, flag and
 * error types, so `hogtail/node` and `hogtail/edge` name them once, here, and never drift apart.
 */
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
} from './messages';
export type { FlagOptions } from './feature-flags';
export type { FeatureFlagResult, SetPersonPropertiesMessage, UnsetPersonPropertiesMessage } from './posthog-client';
export type { FeatureFlagEvaluations } from './flag-snapshot';
export type { OverrideFeatureFlagsOptions } from './flag-overrides';
export type { ContextData, ContextOptions } from './request-context';
export type { FetchLike } from './options';
export { DroppedEventsError, HogtailError, InvalidEventError, TransportError } from '../errors';
export type { DropReason } from '../errors';
export type { QueueStats } from '../queue';
export type { HttpExecutor, HttpRequest, HttpResponse } from '../transport';
export type { FlagValue } from '../flags/decide';
export { LIB_VERSION } from '../version';
