/**
 * The two page kinds of the management API (docs/management-api.md, "Pages"). Offset pages behave like Django REST framework's
 * LimitOffsetPagination; cursor pages are keyset pages (position = the last item's sort key), which
 * is what keeps them free of duplicates and gaps while new groups arrive at the head.
 */
import type { CursorPage, OffsetPage } from '../../api/types';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export class PagingError extends Error {
  override name = 'PagingError' as const;
  constructor(
    message: string,
    readonly status: 400 | 404,
    readonly attr: string,
  ) {
    super(message);
  }
}

/** `url` is the request's public URL; the page links keep its other query parameters. */
export function offsetPage<T>(items: readonly T[], url: URL): OffsetPage<T> {
  const limit = Math.min(MAX_LIMIT, readInteger(url, 'limit', 1) ?? DEFAULT_LIMIT);
  const offset = readInteger(url, 'offset', 0) ?? 0;
  const link = (nextOffset: number): string => {
    const target = new URL(url);
    target.searchParams.set('limit', String(limit));
    if (nextOffset > 0) target.searchParams.set('offset', String(nextOffset));
    else target.searchParams.delete('offset');
    return target.toString();
  };
  return {
    count: items.length,
    next: offset + limit < items.length ? link(offset + limit) : null,
    previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    results: items.slice(offset, offset + limit),
  };
}

/**
 * `items` must be sorted by `sortKey`, and sort keys must be unique. A cursor names a position and a
 * direction: "after" the last item of a page (next) or "before" the first (previous).
 */
export function cursorPage<T>(items: readonly T[], url: URL, pageSize: number, sortKey: (item: T) => string): CursorPage<T> {
  const raw = url.searchParams.get('cursor');
  let start = 0;
  let end = Math.min(items.length, pageSize);
  if (raw !== null && raw !== '') {
    const cursor = decodeCursor(raw);
    const index = firstIndexAfter(items, cursor.position, sortKey);
    if (cursor.direction === 'after') {
      start = index;
      end = Math.min(items.length, start + pageSize);
    } else {
      // "before" names the first item of the page we came from: everything sorting below it.
      end = firstIndexAtOrAfter(items, cursor.position, sortKey);
      start = Math.max(0, end - pageSize);
    }
  }
  const results = items.slice(start, end);
  const link = (direction: 'after' | 'before', item: T): string => {
    const target = new URL(url);
    target.searchParams.set('cursor', encodeCursor({ direction, position: sortKey(item) }));
    return target.toString();
  };
  const last = results[results.length - 1];
  const first = results[0];
  return {
    next: end < items.length && last !== undefined ? link('after', last) : null,
    previous: start > 0 && first !== undefined ? link('before', first) : null,
    results,
  };
}

interface Cursor {
  direction: 'after' | 'before';
  position: string;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.direction, cursor.position])).toString('base64url');
}

function decodeCursor(raw: string): Cursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && (parsed[0] === 'after' || parsed[0] === 'before') && typeof parsed[1] === 'string') {
      return { direction: parsed[0], position: parsed[1] };
    }
  } catch {
    // fall through
  }
  throw new PagingError('Invalid cursor', 404, 'cursor');
}

function firstIndexAfter<T>(items: readonly T[], position: string, sortKey: (item: T) => string): number {
  const index = items.findIndex((item) => sortKey(item) > position);
  return index === -1 ? items.length : index;
}

function firstIndexAtOrAfter<T>(items: readonly T[], position: string, sortKey: (item: T) => string): number {
  const index = items.findIndex((item) => sortKey(item) >= position);
  return index === -1 ? items.length : index;
}

function readInteger(url: URL, name: string, min: number): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new PagingError(`A valid integer ≥ ${min} is required.`, 400, name);
  }
  return Number(raw);
}
