/**
 * One place that talks to the server: builds the URL, attaches the key, enforces the timeout, maps
 * failures to the error family and retries what is safe to retry. Resource modules only describe
 * endpoints.
 *
 * The personal API key goes in the Authorization header and nowhere else: not in the URL, not in an
 * error (server text is scrubbed of it), not on any object a caller can inspect.
 */
import { ApiError, ApiNetworkError, ApiTimeoutError, type HttpMethod } from './errors';
import { toSearchParams } from './paths';
import { backoffDelay, isRetryableStatus, parseRetryAfter, sleep } from './retry';
import { scopeFor, type EndpointId } from './scopes';
import type { QueryParams, RequestOptions } from './types';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface RequesterConfig {
  /** `protocol://host[:port]` of the server. */
  origin: string;
  /** Path prefix before `/api/…` when the server lives below a path; '' usually. */
  basePath: string;
  /** `/api/environments/<encoded project id>` */
  projectPath: string;
  personalApiKey: string;
  fetch: FetchLike;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
}

export interface ApiRequest {
  endpoint: EndpointId;
  method: HttpMethod;
  /** Below the project path, already encoded; starts and ends with '/'. */
  path: string;
  query?: QueryParams | URLSearchParams;
  body?: unknown;
  accept?: string;
}

/**
 * Turns a successful response into the caller's value; `fail` builds an ApiError for an unreadable
 * body, quoting at most ERROR_TEXT_LIMIT characters of `serverText` after removing the key from it.
 */
export type ResponseReader<T> = (response: Response, fail: (code: string, detail: string, serverText?: string) => ApiError) => Promise<T>;

export interface Requester {
  /** The JSON body of a successful response; undefined for 204 or an empty body. */
  json<T>(request: ApiRequest, options?: RequestOptions): Promise<T>;
  /**
   * A successful response handed to `read`. With `streaming`, the timeout stops once the headers are
   * in, so a large download is not cut off; the caller's signal still cancels the body.
   */
  send<T>(request: ApiRequest, options: RequestOptions | undefined, read: ResponseReader<T>, streaming?: boolean): Promise<T>;
  /** Where `next` links are resolved against, when a server sends them relative. */
  readonly baseUrl: string;
  /** The full request path (no host, no query) for a path below the project, as errors report it. */
  pathFor(path: string): string;
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: Error; retryable: boolean; retryAfterMs?: number };

const ERROR_TEXT_LIMIT = 300;

/** What one attempt needs of its requester. */
interface RequestContext {
  config: RequesterConfig;
  pathFor(path: string): string;
  /** The text with the personal key taken out. */
  redact(text: string): string;
  /** The server's words, shortened only after the key is out of them: a cut through the key would hide it from redact. */
  quote(text: string): string;
}

/**
 * One controller per attempt carries both the caller's abort and our timeout into fetch;
 * `release` undoes both once the attempt is over.
 */
function attemptSignal(timeoutMs: number, userSignal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs > 0 && Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException(`no response within ${timeoutMs} ms`, 'TimeoutError'));
        }, timeoutMs)
      : undefined;
  const onUserAbort = (): void => controller.abort(userSignal?.reason);
  userSignal?.addEventListener('abort', onUserAbort, { once: true });
  const stopTimer = (): void => clearTimeout(timer);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    stopTimer,
    release(): void {
      stopTimer();
      userSignal?.removeEventListener('abort', onUserAbort);
    },
  };
}

export function createRequester(config: RequesterConfig): Requester {
  const pathFor = (path: string): string => `${config.basePath}${config.projectPath}${path}`;
  const redact = (text: string): string => (config.personalApiKey === '' ? text : text.split(config.personalApiKey).join('[redacted]'));
  const context: RequestContext = { config, pathFor, redact, quote: (text) => redact(text).slice(0, ERROR_TEXT_LIMIT) };

  async function send<T>(request: ApiRequest, options: RequestOptions = {}, read: ResponseReader<T>, streaming = false): Promise<T> {
    const retryAllowed = options.retry ?? request.method === 'GET';
    const maxRetries = retryAllowed ? config.retries : 0;
    for (let retry = 0; ; retry++) {
      const outcome = await attempt(context, request, options, read, streaming);
      if (outcome.ok) return outcome.value;
      if (!outcome.retryable || retry >= maxRetries) throw outcome.error;
      const waitMs = outcome.retryAfterMs ?? backoffDelay(retry, config.retryDelayMs, config.maxRetryDelayMs);
      // A server asking for a longer pause than we are willing to hold the caller gets its error now.
      if (waitMs > config.maxRetryDelayMs) throw outcome.error;
      await sleep(waitMs, options.signal);
    }
  }

  return {
    send,
    json: <T>(request: ApiRequest, options?: RequestOptions) => send<T>(request, options, readJson as ResponseReader<T>),
    baseUrl: `${config.origin}${config.basePath}/`,
    pathFor,
  };
}

/** One request: its value, or its error and whether another try may succeed. */
async function attempt<T>(
  { config, pathFor, redact, quote }: RequestContext,
  request: ApiRequest,
  options: RequestOptions,
  read: ResponseReader<T>,
  streaming: boolean,
): Promise<Attempt<T>> {
  const { method } = request;
  const path = pathFor(request.path);
  const search = withoutKey(toSearchParams(request.query), config.personalApiKey).toString();
  const url = `${config.origin}${path}${search === '' ? '' : `?${search}`}`;
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  const userSignal = options.signal;
  if (userSignal?.aborted) throw userSignal.reason;

  const { signal, timedOut, stopTimer, release } = attemptSignal(timeoutMs, userSignal);

  const failed = (error: unknown): Attempt<T> => {
    release();
    if (error instanceof ApiError) return { ok: false, error, retryable: false };
    if (userSignal?.aborted) throw userSignal.reason;
    if (timedOut()) return { ok: false, error: new ApiTimeoutError(method, path, timeoutMs, error), retryable: true };
    return {
      ok: false,
      error: new ApiNetworkError(
        redact(`${method} ${path}: could not reach ${config.origin} (${networkReason(error)})`),
        method,
        path,
        error,
      ),
      retryable: true,
    };
  };

  const headers: Record<string, string> = {
    Authorization: `Bearer ${config.personalApiKey}`,
    Accept: request.accept ?? 'application/json',
  };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await config.fetch(url, {
      method,
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
      // A personal key authenticates on its own; cookies of a logged-in session must not ride along.
      credentials: 'omit',
    });
  } catch (error) {
    return failed(error);
  }

  const errorFields = { method, path, endpoint: request.endpoint, scope: scopeFor(request.endpoint) };

  if (!response.ok) {
    let text = '';
    try {
      text = await response.text();
    } catch (error) {
      // The status is what matters; a body lost to a timeout or reset only costs us the detail.
      if (userSignal?.aborted) return failed(error);
    }
    release();
    const body = parseErrorBody(redact(text));
    return {
      ok: false,
      error: new ApiError({
        ...errorFields,
        status: response.status,
        code: redact(body.code ?? `http_${response.status}`),
        detail: redact(body.detail),
        type: body.type === undefined ? undefined : redact(body.type),
      }),
      retryable: isRetryableStatus(response.status),
      ...optionalRetryAfter(parseRetryAfter(response.headers.get('retry-after'))),
    };
  }

  const fail = (code: string, detail: string, serverText?: string): ApiError =>
    new ApiError({
      ...errorFields,
      status: response.status,
      code,
      detail: redact(detail) + (serverText === undefined ? '' : quote(serverText)),
      type: undefined,
    });
  try {
    const value = await read(response, fail);
    if (streaming) stopTimer();
    else release();
    return { ok: true, value };
  } catch (error) {
    return failed(error);
  }
}

export const readJson: ResponseReader<unknown> = async (response, fail) => {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw fail('invalid_response', 'expected a JSON body, got: ', text);
  }
};

/**
 * The query without any parameter that carries the key. A server's `next` link (or a caller's
 * query) holding it would put the key in the URL, where proxies and access logs keep it; the
 * Authorization header already carries it.
 */
function withoutKey(query: URLSearchParams, key: string): URLSearchParams {
  if (key === '') return query;
  const kept = new URLSearchParams(query);
  for (const [name, value] of query) {
    if (value.includes(key) || name.includes(key)) kept.delete(name);
  }
  return kept;
}

function optionalRetryAfter(ms: number | undefined): { retryAfterMs?: number } {
  return ms === undefined ? {} : { retryAfterMs: ms };
}

/** The server's `{type, code, detail}` when it sent JSON; otherwise the start of whatever it sent. */
function parseErrorBody(text: string): { code?: string; detail: string; type?: string } {
  const trimmed = text.trim();
  try {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      const code = typeof record['code'] === 'string' ? record['code'] : undefined;
      const type = typeof record['type'] === 'string' ? record['type'] : undefined;
      const detail = typeof record['detail'] === 'string' ? record['detail'] : trimmed.slice(0, ERROR_TEXT_LIMIT);
      return { detail, ...(code === undefined ? {} : { code }), ...(type === undefined ? {} : { type }) };
    }
  } catch {
    // Not JSON: a proxy's HTML page or a plain-text error.
  }
  return { detail: trimmed.slice(0, ERROR_TEXT_LIMIT) };
}

/** Node's fetch hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`; browsers give only a message. */
function networkReason(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause !== null && typeof cause === 'object') {
      const code = (cause as { code?: unknown }).code;
      if (typeof code === 'string') return `${error.message}: ${code}`;
      const message = (cause as { message?: unknown }).message;
      if (typeof message === 'string' && message !== '') return `${error.message}: ${message}`;
    }
    return error.message;
  }
  return String(error);
}
