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
