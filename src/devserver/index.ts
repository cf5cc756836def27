/**
 * `hogtail/devserver`: the test collector, `hogtail dev` as a library, and the flags handler, with
 * their types. HTTP plumbing and the ingestion rules' internals stay private so they can change.
 */
export { createCollector } from './collector/collector';
export type { Collector, CollectorOptions, Exchange, RequestInfo } from './collector/collector';
export { defaultDecideResponse } from './ingest/decide';
export type { IngestOptions, IngestOutcome } from './ingest/ingest';
export type {
  CaptureEndpoint,
  DecideHandler,
  DecideRequest,
  DecideResponse,
  ReceivedEvent,
  Rejection,
} from './ingest/types';
export { startDevServer } from './dev/server';
export type { DevServer, DevServerOptions } from './dev/server';
export type { DevRejection, DevStore, EventQuery, SearchPage, SearchQuery, StoredEvent } from './dev/store-types';
export type { DevSummary, FlagUser } from './dev/summary';
export { createFlagsDecide, FlagDefinitionsError } from './flags';
export type { FlagDefinitions, FlagDefinition, FlagsDecide, FlagsDecideOptions, FlagValue } from './flags';
