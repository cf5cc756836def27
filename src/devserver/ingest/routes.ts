/**
 * Which paths the ingestion rules answer, and a request target split into path and query.
 */
import type { CaptureEndpoint } from './types';

/**
 * `flags` is decide's successor (`/flags/?v=2`): the same handler, answered in the v2 shape.
 * `surveys`: the project's survey definitions (`GET /api/surveys/?token=`), for the surveys extension.
 */
export type Route = { kind: 'capture'; endpoint: CaptureEndpoint } | { kind: 'decide' } | { kind: 'flags' } | { kind: 'surveys' };

// `/s/`: session replay's snapshots (`$snapshot` events), the same body shapes as the others.
const CAPTURE_ENDPOINTS: readonly CaptureEndpoint[] = ['/batch/', '/capture/', '/e/', '/i/v0/e/', '/track/', '/s/'];

/** The real server answers each path with and without its trailing slash. */
export function matchRoute(pathname: string): Route | undefined {
  const canonical = pathname.endsWith('/') ? pathname : `${pathname}/`;
  if (canonical === '/decide/') return { kind: 'decide' };
  if (canonical === '/flags/') return { kind: 'flags' };
  if (canonical === '/api/surveys/') return { kind: 'surveys' };
  const endpoint = CAPTURE_ENDPOINTS.find((candidate) => candidate === canonical);
  return endpoint === undefined ? undefined : { kind: 'capture', endpoint };
}

export interface RequestTarget {
  pathname: string;
  query: URLSearchParams;
}

/**
 * Split by hand rather than with `new URL(target, base)`: a target such as `//evil/x` would be read
 * as a protocol-relative URL and change the host instead of the path.
 */
export function parseRequestTarget(target: string | undefined): RequestTarget {
  const raw = target ?? '/';
  const queryStart = raw.indexOf('?');
  const pathname = queryStart === -1 ? raw : raw.slice(0, queryStart);
  const query = new URLSearchParams(queryStart === -1 ? '' : raw.slice(queryStart + 1));
  return { pathname, query };
}
