/**
 * The official PostHog snippet leaves a stub at `window.posthog`: an array of the calls made so
 * far (`[method, ...args]`, in order), with the init calls in `_i` as `[token, config, name?]`.
 * We run init, then (after its `loaded`, before its first `$pageview`) every queued call in the
 * order it was made (posthog-js reorders some; a page expects its own order), then the client
 * takes the stub's place.
 */
import type { Hogtail, HogtailConfig } from '../hogtail';

type Call = [string, ...unknown[]];
export type SnippetStub = Call[] & { _i?: [string, HogtailConfig?, string?][] } & Record<string, unknown>;

export function isSnippetStub(value: unknown): value is SnippetStub {
  return Array.isArray(value) && Array.isArray((value as SnippetStub)._i);
}

export function replay(client: Hogtail, calls: readonly Call[]): void {
  for (const [name, ...args] of calls) {
    const method = (client as unknown as Record<string, unknown>)[name];
    if (typeof method === 'function') method.apply(client, args);
    else console.warn(`[hogtail] posthog.${name}() is not supported by hogtail; it has no effect`);
  }
}

/**
 * Initialises `client` from the stub's init calls and returns it to take the stub's place. The
 * snippet records the default instance under the name "posthog"; a named one (`init(token,
 * config, 'name')`) has its own stub at `stub[name]` and becomes `client[name]` (the lite tag
 * warns instead). Each instance's queued calls run right after its `loaded` callback, as posthog-js runs
 * them, so they come before the first `$pageview` (a queued reset() or identify() included).
 */
export function adoptSnippet(stub: SnippetStub, client: Hogtail): Hogtail {
  for (const [token, config, name] of stub._i!) {
    const queue = name !== undefined && name !== 'posthog' ? stub[name] : stub;
    // Taken out of the stub, so an instance initialised twice replays its calls once.
    const calls = Array.isArray(queue) ? (queue.splice(0) as Call[]) : [];
    const loaded = config?.loaded;
    client.init(
      token,
      {
        ...config,
        loaded(instance) {
          try {
            loaded?.(instance);
          } finally {
            replay(instance, calls);
          }
        },
      },
      name,
    );
  }
  return client;
}

/**
 * Assigns `window.hogtail`; when the official snippet's stub is at `window.posthog`, initialises
 * from it, replays its calls in order and takes its place, so a site can swap posthog-js's
 * array.js for this file and change nothing else. A real posthog-js already on the page is left
 * alone.
 */
export function installScriptTag(client: Hogtail): void {
  const w = window as unknown as Record<string, unknown>;
  w.hogtail = client;
  const stub = w.posthog;
  if (isSnippetStub(stub)) w.posthog = adoptSnippet(stub, client);
  else if (stub === undefined) w.posthog = client;
}
