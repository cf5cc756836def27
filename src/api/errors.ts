/**
 * The management client's error family. Each `name` is a literal so callers can switch on it even
 * where `instanceof` fails (two copies of the package in one bundle). No error ever carries the
 * personal API key: messages are built from the method, path, status and server detail only, and the
 * detail is scrubbed of the key in case a server echoes the Authorization header back.
 */
import type { EndpointId, Scope } from './scopes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ApiErrorInit {
  status: number;
  /** The server's error `code`, or `http_<status>` when the body had none. */
  code: string;
  /** The server's error `detail` (or the start of a non-JSON body), scrubbed of the key. */
  detail: string;
  /** The server's error `type` when it sent one (e.g. `authentication_error`). */
  type: string | undefined;
  method: HttpMethod;
  /** The request path without host or query, e.g. `/api/environments/1/exports/`. */
  path: string;
  endpoint: EndpointId;
  /** The scope the endpoint needs per the spec, or null where the spec lists none. */
  scope: Scope | null;
  /** Overrides the message built from the fields above. */
  message?: string;
}

/** The server answered with a status that is not a success (or an unreadable success body). */
export class ApiError extends Error {
  override name = 'ApiError' as const;
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly type: string | undefined;
  readonly method: HttpMethod;
  readonly path: string;
  readonly endpoint: EndpointId;
  readonly scope: Scope | null;

  constructor(init: ApiErrorInit) {
    super(init.message ?? describeFailure(init));
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.type = init.type;
    this.method = init.method;
    this.path = init.path;
    this.endpoint = init.endpoint;
    this.scope = init.scope;
  }
}

/** No response arrived: DNS, refused connection, reset, TLS, CORS. The fetch error is the `cause`. */
export class ApiNetworkError extends Error {
  override name = 'ApiNetworkError' as const;
  readonly method: HttpMethod;
  readonly path: string;
  constructor(message: string, method: HttpMethod, path: string, cause: unknown) {
    super(message, { cause });
    this.method = method;
    this.path = path;
  }
}

/** No complete response within `timeoutMs`. The abort reason is the `cause`. */
export class ApiTimeoutError extends Error {
  override name = 'ApiTimeoutError' as const;
  readonly method: HttpMethod;
  readonly path: string;
  readonly timeoutMs: number;
  constructor(method: HttpMethod, path: string, timeoutMs: number, cause: unknown) {
    super(`${method} ${path} timed out after ${timeoutMs} ms`, { cause });
    this.method = method;
    this.path = path;
    this.timeoutMs = timeoutMs;
  }
}

/** A personal API key was about to be used from a web page, where every visitor could read it. */
export class ApiBrowserError extends Error {
  override name = 'ApiBrowserError' as const;
  constructor() {
    super(
      'refusing to create a management API client in a browser. A personal API key ' +
        'grants access to your whole project and anyone who opens the page can read it, so it must ' +
        'stay on a server. Call the management API from your backend, or pass allowBrowser: true if ' +
        'this page is a trusted internal tool and you accept that risk.',
    );
  }
}

function describeFailure(init: ApiErrorInit): string {
  const where = `${init.method} ${init.path}`;
  const detail = init.detail === '' ? '' : ` Server said: ${init.detail}`;
  if (init.status === 401) {
    return (
      `The personal API key is invalid or missing (401 on ${where}). ` +
      `Create a personal API key (phx_…) in your account settings and pass it as personalApiKey.${detail}`
    );
  }
  if (init.status === 403) {
    const need =
      init.scope === null
        ? 'The spec lists no scope for this endpoint; check that the key may access this project.'
        : `This endpoint needs the scope "${init.scope}"; add it to the personal API key.`;
    return `The personal API key is not allowed to call ${where} (403). ${need}${detail}`;
  }
  return `${where} failed with ${init.status} ${init.code}.${detail}`;
}
