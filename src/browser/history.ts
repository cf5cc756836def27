/**
 * SPA navigation: routers move with pushState / replaceState and come back with popstate, none of
 * which reloads the page. We wrap the two methods (calling the original, so routers see no
 * difference) and tell the caller before each call (with the URL it goes to) and after each change
 * (with how it happened: posthog-js's `navigation_type`).
 */
export type NavigationType = 'pushState' | 'replaceState' | 'popstate';

export function watchHistory(onChange: (type: NavigationType) => void, before: (url: unknown) => void): void {
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      before(args[2]);
      const result = original.apply(this, args);
      onChange(name);
      return result;
    };
  }
  addEventListener('popstate', () => onChange('popstate'));
}
