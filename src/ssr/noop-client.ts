/**
 * The browser client's API for code that runs where there is no page: server-side rendering
 * (Vite `--ssr`, Next/Nuxt/SvelteKit servers, esbuild `--platform=node`) imports `hogtail` and
 * calls it exactly as the page does. Like posthog-js on a server, nothing is captured or sent and
 * nothing throws; `hogtail/node` is the client for capturing from a server.
 *
 * Typed against the browser's `Hogtail` interface (a type-only import, so no browser code comes
 * along): a method added there without a no-op here is a type error, not a crash during SSR.
 */
import type { Hogtail } from '../browser/index';

/** Logs one debug line per process, the first time someone calls init() where there is no page. */
let told = false;
function tellOnce(): void {
  if (told) return;
  told = true;
  console.debug('[hogtail] no window here (server-side rendering?): init() and every method do nothing; use hogtail/node to capture from a server');
}

const nothing = (): void => undefined;
const noUnsubscribe = (): (() => void) => nothing;

export function createNoopHogtail(): Hogtail {
  const client: Hogtail = {
    init: () => {
      tellOnce();
      return client;
    },
    capture: nothing,
    identify: nothing,
    alias: nothing,
    group: nothing,
    reset: nothing,
    register: nothing,
    register_once: nothing,
    unregister: nothing,
    get_distinct_id: () => '',
    get_session_id: () => '',
    screen: nothing,
    setPersonProperties: nothing,
    opt_out_capturing: nothing,
    opt_in_capturing: nothing,
    has_opted_out_capturing: () => false,
    flush: () => Promise.resolve(),
    debug: nothing,
    surveyShown: nothing,
    surveyDismissed: nothing,
    surveySent: nothing,
    on: noUnsubscribe,
    stats: () => ({ enqueued: 0, delivered: 0, dropped: {}, requests: 0, retries: 0, pending: 0, unsaved: 0 }),
    getFeatureFlag: () => undefined,
    isFeatureEnabled: () => undefined,
    getFeatureFlagPayload: () => undefined,
    onFeatureFlags: noUnsubscribe,
    reloadFeatureFlags: nothing,
    setPersonPropertiesForFlags: nothing,
    setGroupPropertiesForFlags: nothing,
  };
  return client;
}
