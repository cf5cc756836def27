/**
 * The shapes the collector hands to its users: what an accepted event looks like once received, why a
 * request was refused, and the decide contract. Kept apart from the handler so a test or the CLI can
 * import the types without pulling in node:http.
 */

/** Capture paths the real server answers, in the canonical (trailing slash) spelling. */
export type CaptureEndpoint = '/batch/' | '/capture/' | '/e/' | '/i/v0/e/' | '/track/' | '/s/';

/** One event as the collector accepted it. Field names follow the wire so assertions read like payloads. */
export interface ReceivedEvent {
  uuid?: string;
  event: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  timestamp?: string;
  sent_at?: string;
  /** posthog-js puts capture-time `$set` / `$set_once` at the top of the event, not in properties. */
  $set?: Record<string, unknown>;
  $set_once?: Record<string, unknown>;
  historical_migration: boolean;
  api_key: string;
  /** When the collector received the request, ISO 8601. */
  receivedAt: string;
  /** Which HTTP request carried the event; unique for the collector's lifetime. */
  requestId: number;
  endpoint: CaptureEndpoint;
}

/** A request answered with a non-2xx status by the rules (not by an injected fault). */
export interface Rejection {
  requestId: number;
  status: number;
  reason: string;
  path: string;
}

export interface DecideRequest {
  api_key: string;
  distinct_id: string;
  groups?: Record<string, unknown>;
  person_properties?: Record<string, unknown>;
  group_properties?: Record<string, unknown>;
  /** The decoded body as sent, for handlers that look at fields beyond the spec's. */
  body: Record<string, unknown>;
  /** The `v` query parameter (the SDKs send 3). */
  version: string | undefined;
  /** Which path asked: `/flags/` answers in the v2 shape (see flags/v2-response.ts). */
  endpoint?: '/decide/' | '/flags/';
}

export interface DecideResponse {
  config: { enable_collect_everything: boolean; [key: string]: unknown };
  toolbarParams: Record<string, unknown>;
  errorsWhileComputingFlags: boolean;
  isAuthenticated: boolean;
  supportedCompression: string[];
  featureFlags: Record<string, boolean | string>;
  /** Payloads as stored, usually JSON-encoded strings. */
  featureFlagPayloads: Record<string, unknown>;
  quotaLimited?: string[];
  [key: string]: unknown;
}

export type DecideHandler = (
  request: DecideRequest,
  headers: Readonly<Record<string, string | string[] | undefined>>,
) => DecideResponse | Promise<DecideResponse>;

/** A refusal on its way out: the status and the plain-text reason the client will read. */
export interface Refusal {
  ok: false;
  status: number;
  reason: string;
}

export function refuse(status: number, reason: string): Refusal {
  return { ok: false, status, reason };
}
