/** Shared setup for the management client tests: a real server on 127.0.0.1 and keys of each kind. */
import { afterEach, beforeEach } from 'vitest';
import { createApiClient, type ApiClient, type ApiClientOptions } from '../../src/api';
import { createManagementServer, type ManagementServer, type ManagementServerOptions } from '../../src/devserver/management';

export const KEY = 'phx_testAllScopes_0123456789abcdef';
export const READ_ONLY_KEY = 'phx_testReadOnly_0123456789abcdef';
export const NO_SCOPE_KEY = 'phx_testNoScopes_0123456789abcdef';

export const KEYS = {
  [KEY]: '*',
  [READ_ONLY_KEY]: ['export:read', 'group:read', 'session_recording:read', 'sharing_configuration:read', 'subscription:read'],
  [NO_SCOPE_KEY]: [],
} as const;

export function startServer(options: ManagementServerOptions = {}): Promise<ManagementServer> {
  return createManagementServer({ keys: KEYS, ...options });
}

/**
 * A server, and a client of it, that only the current test talks to: a fresh pair for each test of
 * the calling describe block. A request an earlier test gave up on (its client timed out or
 * aborted before the server read it) can still reach a shared server afterwards and take the
 * fault the next test set up, or add to the requests it counts; a test that sets faults or counts
 * requests uses its own server, which no other test's request can reach.
 */
export function useOwnServer(): { server: ManagementServer; client: ApiClient } {
  const own = {} as { server: ManagementServer; client: ApiClient };
  beforeEach(async () => {
    own.server = await startServer();
    own.client = clientFor(own.server);
  });
  afterEach(() => own.server.close());
  return own;
}

/** Fast retries so tests do not wait on backoff; timing itself is never asserted. */
export function clientFor(server: ManagementServer, options: Partial<ApiClientOptions> = {}): ApiClient {
  return createApiClient({
    host: server.url,
    personalApiKey: KEY,
    projectId: server.projectId,
    retryDelayMs: 1,
    ...options,
  });
}

/** Everything an error exposes as text: message, stack, own fields and the cause chain. */
export function everyTextOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    parts.push(String(current));
    if (current instanceof Error) {
      parts.push(current.stack ?? '');
      parts.push(safeJson(current, Object.getOwnPropertyNames(current)));
      current = (current as { cause?: unknown }).cause;
    } else {
      parts.push(safeJson(current));
      current = undefined;
    }
  }
  return parts.join('\n');
}

export async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

function safeJson(value: unknown, keys?: string[]): string {
  try {
    return JSON.stringify(value, keys) ?? '';
  } catch {
    return '';
  }
}
