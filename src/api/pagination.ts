/**
 * Walking every item of a list by following `next`.
 *
 * Only the query of a `next` link is used; the request goes to the same endpoint on the configured
 * host. Servers behind proxies often write their internal host (or plain http) into `next`, and
 * following it verbatim would either fail or hand the Authorization header to another host.
 *
 * Offset pages shift when rows are added or removed while we walk them, which shows up as an item
 * seen twice; items are de-duplicated by identity so the caller never gets one twice. A server whose
 * `next` points back to a page already fetched would otherwise loop forever, so that is an error.
 */
import { ApiError } from './errors';
import { toSearchParams } from './paths';
import { scopeFor, type EndpointId } from './scopes';
import type { QueryParams, RequestOptions } from './types';

export interface PageLike<T> {
  next: string | null;
  results: T[];
}

export interface IterateConfig<T> {
  endpoint: EndpointId;
  /** The endpoint's full path, for the error a looping server gets. */
  path: string;
  baseUrl: string;
  fetchPage: (query: QueryParams | URLSearchParams, options: RequestOptions | undefined) => Promise<PageLike<T>>;
  keyOf: (item: T) => string;
}

export async function* iteratePages<T>(
  config: IterateConfig<T>,
  firstQuery: QueryParams,
  options: RequestOptions | undefined,
): AsyncGenerator<T, void, undefined> {
  const seenItems = new Set<string>();
  const followed = new Set<string>([fingerprintOf(toSearchParams(firstQuery))]);
  let page = await config.fetchPage(firstQuery, options);
  for (;;) {
    for (const item of page.results) {
      const key = config.keyOf(item);
      if (seenItems.has(key)) continue;
      seenItems.add(key);
      yield item;
    }
    if (page.next === null || page.next === undefined || page.next === '') return;
    const query = new URL(page.next, config.baseUrl).searchParams;
    const fingerprint = fingerprintOf(query);
    if (followed.has(fingerprint)) {
      throw new ApiError({
        status: 200,
        code: 'pagination_loop',
        detail: `next link repeats a page already fetched (?${fingerprint})`,
        type: undefined,
        method: 'GET',
        path: config.path,
        endpoint: config.endpoint,
        scope: scopeFor(config.endpoint),
        message: `GET ${config.path}: the server's next link points to a page already fetched; stopped to avoid an endless loop`,
      });
    }
    followed.add(fingerprint);
    page = await config.fetchPage(query, options);
  }
}

function fingerprintOf(query: URLSearchParams): string {
  const sorted = new URLSearchParams(query);
  sorted.sort();
  return sorted.toString();
}
