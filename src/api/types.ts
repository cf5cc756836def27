/**
 * Resource shapes of the environments management API, field for field (docs/management-api.md,
 * "Resources"). Where the spec leaves something open (allowed enum values, which
 * request fields are required, bodies it does not document) the type stays open too: a `string`
 * rather than a guessed union, optional request fields, `unknown` for undocumented bodies.
 */

/** ISO 8601 date-time, as the server sends it. */
export type DateTimeString = string;

/** Offset page: exports, session recordings, subscriptions. */
export interface OffsetPage<T> {
  /** Total number of items across all pages. */
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** Cursor page: groups. There is no total count. */
export interface CursorPage<T> {
  next: string | null;
  previous: string | null;
  results: T[];
}

/** A user, as embedded in members and subscriptions. */
export interface User {
  id: number;
  uuid: string;
  distinct_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_email_verified: boolean;
  hedgehog_config: Record<string, unknown>;
  role_at_organization: string;
}

/** A user's explicit membership of the environment. */
export interface ExplicitMember {
  id: string;
  level: number;
  parent_level: number;
  parent_membership_id: string;
  joined_at: DateTimeString;
  updated_at: DateTimeString;
  user: User;
  user_uuid: string;
  effective_level: number;
}

/** Explicit member PATCH body: the writable fields of an explicit member. */
export interface ExplicitMemberUpdate {
  level?: number;
  user_uuid?: string;
}

/** An exported asset (a dashboard or insight rendered to a file). */
export interface ExportedAsset {
  id: number;
  dashboard: number;
  insight: number;
  /** A media type such as `text/csv` or `image/png`; the full set is not in the spec. */
  export_format: string;
  created_at: DateTimeString;
  /** The spec types this as a string ("as typed by the interface"). */
  has_content: string;
  export_context: unknown;
  filename: string;
  expires_after: DateTimeString;
}

/** Export POST body: the fields settable on create. */
export interface ExportedAssetCreate {
  dashboard?: number;
  insight?: number;
  export_format?: string;
  export_context?: unknown;
  expires_after?: DateTimeString;
}

/** What `exports.content()` resolves to. */
export interface ExportContent {
  bytes: Uint8Array;
  /** The response's Content-Type, `application/octet-stream` when the server sent none. */
  contentType: string;
  /** From Content-Disposition, when the server names the file. */
  filename: string | undefined;
}

/**
 * What `exports.contentStream()` resolves to. `stream` is the web ReadableStream from fetch, which
 * browsers and Node 20 both provide; in Node, `Readable.fromWeb(stream)` turns it into a Node stream.
 */
export interface ExportContentStream {
  stream: ReadableStream<Uint8Array>;
  contentType: string;
  filename: string | undefined;
  /** From Content-Length, when the server sent it. */
  contentLength: number | undefined;
}

/** A group. */
export interface Group {
  group_type_index: number;
  group_key: string;
  group_properties: unknown;
  created_at: DateTimeString;
}

/** Person object embedded in a session recording. */
export interface Person {
  id: number;
  name: string;
  /** The spec types this as a string. */
  distinct_ids: string;
  properties: unknown;
  created_at: DateTimeString;
  uuid: string;
}

/** A session recording. */
export interface SessionRecording {
  id: string;
  distinct_id: string;
  viewed: boolean;
  recording_duration: number;
  active_seconds: number;
  inactive_seconds: number;
  start_time: DateTimeString;
  end_time: DateTimeString;
  click_count: number;
  keypress_count: number;
  mouse_activity_count: number;
  console_log_count: number;
  console_warn_count: number;
  console_error_count: number;
  start_url: string;
  person: Person;
  storage: string;
  snapshot_source: string;
  ongoing: boolean;
  activity_score: number;
}

/** Session recording PATCH body. The spec does not show the shape of `person`, so any subset of Person is allowed. */
export interface SessionRecordingUpdate {
  person?: Partial<Person>;
}

/** A session recording's sharing configuration. */
export interface SharingConfiguration {
  created_at: DateTimeString;
  enabled: boolean;
  access_token: string;
}

/** A subscription (a scheduled delivery of a dashboard or insight). */
export interface Subscription {
  id: number;
  dashboard: number;
  insight: number;
  target_type: string;
  target_value: string;
  frequency: string;
  interval: number;
  byweekday: string[];
  bysetpos: number;
  count: number;
  start_date: DateTimeString;
  until_date: DateTimeString;
  created_at: DateTimeString;
  created_by: User;
  deleted: boolean;
  title: string;
  summary: string;
  next_delivery_date: DateTimeString;
  invite_message: string;
}

/** Query-string values; `undefined` leaves the parameter out. */
export type QueryValue = string | number | boolean | undefined;
export type QueryParams = Record<string, QueryValue>;

/** Exports, session recordings, subscriptions: `limit` results per page starting at index `offset`. */
export interface OffsetPageParams {
  limit?: number;
  offset?: number;
}

/** Groups: `group_type_index` must be passed. */
export interface GroupsListParams {
  group_type_index: number;
  cursor?: string;
  search?: string;
}

export interface GroupsFindParams {
  group_key: string;
  group_type_index: number;
}

/** Per-call options, accepted as the last argument of every method. */
export interface RequestOptions {
  /** Cancels the call, including any wait between retries; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Retry transient failures (429, 5xx, network errors, timeouts). Default: true for GET, false for
   * POST/PATCH/DELETE, because a write that reached the server but lost its answer would be repeated.
   */
  retry?: boolean;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}
