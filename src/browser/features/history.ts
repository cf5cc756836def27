/**
 * SPA navigation: routers move with pushState / replaceState and come back with popstate, none of
 * which reloads the page. We wrap the two methods (calling the original first, so routers see no
 * difference) and tell the caller after each change.
 */
import type { PageLocation } from './hooks';

/** Where the page is now. */
export const here = (): PageLocation => ({ url: location.href, path: location.pathname });

export function watchHistory(onChange: () => void): void {
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      onChange();
      return result;
    };
  }
  addEventListener('popstate', onChange);
}
