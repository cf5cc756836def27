export { createCollector } from './collector';
export type { Collector, CollectorOptions, Exchange, RequestInfo } from './collector';
export {
  createIngestHandler,
  evaluateRequest,
  writeOutcome,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_EVENT_BYTES,
} from './ingest';
export type { IngestOptions, IngestOutcome } from './ingest';
export { defaultDecideResponse } from './decide';
export { sendText, sendJson, sendEmpty, corsHeaders } from './respond';
export type {
  CaptureEndpoint,
  DecideHandler,
  DecideRequest,
  DecideResponse,
  ReceivedEvent,
  Rejection,
} from './types';
export { startDevServer } from './dev-server';
export type { DevServer, DevServerOptions } from './dev-server';
export type { DevRejection, DevStore, EventQuery, StoredEvent } from './dev-store';
export type { DevSummary } from './dev-summary';
export {
  createFlagsDecide,
  parseFlagDefinitions,
  FlagDefinitionsError,
  evaluateFlags,
  flagHash,
} from './flags';
export type { FlagDefinitions, FlagDefinition, FlagsDecide, FlagsDecideOptions, FlagValue } from './flags';
