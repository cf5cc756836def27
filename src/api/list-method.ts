/**
 * List methods: calling one fetches a single page; its `iterate()` walks every item across pages.
 * Parameters are checked when `iterate()` is called, not on the first `next()`, so a mistake
 * surfaces where it was made.
 */
import { iteratePages, type PageLike } from './pagination';
import { optionalInteger } from './paths';
import { readJson, type ApiRequest, type Requester, type ResponseReader } from './request';
import type { EndpointId } from './scopes';
import type { OffsetPage, OffsetPageParams, QueryParams, RequestOptions } from './types';

export interface ListMethod<P, Page, T> {
  (params: P, options?: RequestOptions): Promise<Page>;
  /** Every item of every page, in order, each once, following `next` until it is null. */
  iterate(params: P, options?: RequestOptions): AsyncIterableIterator<T>;
}

export interface OffsetListMethod<T> {
  (params?: OffsetPageParams, options?: RequestOptions): Promise<OffsetPage<T>>;
  /** Every item of every page, in order, each once. `limit` sets the page size, `offset` where to start. */
  iterate(params?: OffsetPageParams, options?: RequestOptions): AsyncIterableIterator<T>;
}

export interface ListDefinition<P, T> {
  endpoint: EndpointId;
  path: string;
  /** Checks the caller's parameters (throwing TypeError) and turns them into the query. */
  toQuery: (params: P) => QueryParams;
  /** Identity of an item, to drop one seen twice when rows shift under an offset walk. */
  keyOf: (item: T) => string;
}

export function createListMethod<P, Page extends PageLike<T>, T>(
  requester: Requester,
  definition: ListDefinition<P, T>,
): ListMethod<P, Page, T> {
  const { endpoint, path } = definition;
  const fetchPage = (query: QueryParams | URLSearchParams, options: RequestOptions | undefined): Promise<Page> => {
    const request: ApiRequest = { endpoint, method: 'GET', path, query };
    return requester.send(request, options, readPage as ResponseReader<Page>);
  };
  const list = (params: P, options?: RequestOptions): Promise<Page> => {
    let query: QueryParams;
    try {
      query = definition.toQuery(params);
    } catch (error) {
      return Promise.reject(error);
    }
    return fetchPage(query, options);
  };
  const iterate = (params: P, options?: RequestOptions): AsyncIterableIterator<T> =>
    iteratePages<T>(
      { endpoint, path: requester.pathFor(path), baseUrl: requester.baseUrl, fetchPage, keyOf: definition.keyOf },
      definition.toQuery(params),
      options,
    );
  return Object.assign(list, { iterate });
}

export function createOffsetListMethod<T>(
  requester: Requester,
  definition: Omit<ListDefinition<OffsetPageParams | undefined, T>, 'toQuery'>,
): OffsetListMethod<T> {
  return createListMethod<OffsetPageParams | undefined, OffsetPage<T>, T>(requester, {
    ...definition,
    toQuery: offsetQuery,
  });
}

function offsetQuery(params: OffsetPageParams | undefined): QueryParams {
  if (params !== undefined && (params === null || typeof params !== 'object')) {
    throw new TypeError('list parameters must be an object like { limit, offset }');
  }
  return {
    limit: optionalInteger(params?.limit, 'limit', 1),
    offset: optionalInteger(params?.offset, 'offset', 0),
  };
}

/** A page must at least carry a results array, or walking it would fail somewhere less clear. */
const readPage: ResponseReader<PageLike<unknown>> = async (response, fail) => {
  const body = await readJson(response, fail);
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { results?: unknown }).results)) {
    throw fail('invalid_response', 'expected a page object with a results array');
  }
  return body as PageLike<unknown>;
};
