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
  console.debug(
    '[hogtail] no window here (server-side rendering?): init() and every method do nothing; use hogtail/node to capture from a server',
  );
}

const nothing = (): void => undefined;
const noUnsubscribe = (): (() => void) => nothing;

/** posthog-js's flags component and persistence as they read before anything is known. */
const noFlags: Hogtail['featureFlags'] = {
  hasLoadedFlags: false,
  getFlags: () => [],
  getFlagVariants: () => ({}),
  getFlagPayloads: () => ({}),
  getFeatureFlag: () => undefined,
  isFeatureEnabled: () => undefined,
  getFeatureFlagPayload: () => undefined,
  getFeatureFlagResult: () => undefined,
  getAllFeatureFlags: () => [],
  reloadFeatureFlags: nothing,
  onFeatureFlags: noUnsubscribe,
  updateFlags: nothing,
  setPersonPropertiesForFlags: nothing,
  resetPersonPropertiesForFlags: nothing,
  setGroupPropertiesForFlags: nothing,
  resetGroupPropertiesForFlags: nothing,
  override: nothing,
  overrideFeatureFlags: nothing,
};
const noPersistence: Hogtail['persistence'] = {
  props: {},
  get_property: () => undefined,
  set_property: nothing,
  register: nothing,
  register_once: nothing,
  unregister: nothing,
};

export function createNoopHogtail(): Hogtail {
  const client: Hogtail = {
    init: () => {
      tellOnce();
      return client;
    },
    __loaded: false,
    people: { set: nothing, set_once: nothing },
    capture: () => undefined,
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
    stats: () => ({ enqueued: 0, delivered: 0, dropped: {}, requests: 0, retries: 0, pending: 0, unsaved: 0, repaired: 0 }),
    getFeatureFlag: () => undefined,
    isFeatureEnabled: () => undefined,
    getFeatureFlagPayload: () => undefined,
    onFeatureFlags: noUnsubscribe,
    reloadFeatureFlags: nothing,
    setPersonPropertiesForFlags: nothing,
    setGroupPropertiesForFlags: nothing,
    // posthog-js's other methods, and the products hogtail does not have: the values posthog-js gives when off.
    getGroups: () => ({}),
    resetGroups: nothing,
    register_for_session: nothing,
    unregister_for_session: nothing,
    get_property: () => undefined,
    getSessionProperty: () => undefined,
    onSessionId: noUnsubscribe,
    getPageViewId: () => undefined,
    unsetPersonProperties: nothing,
    createPersonProfile: nothing,
    setInternalOrTestUser: nothing,
    calculateEventProperties: () => ({}),
    captureException: () => undefined,
    startExceptionAutocapture: nothing,
    stopExceptionAutocapture: nothing,
    addExceptionStep: nothing,
    captureTraceFeedback: nothing,
    captureTraceMetric: nothing,
    has_opted_in_capturing: () => false,
    get_explicit_consent_status: () => 'pending',
    clear_opt_in_out_capturing: nothing,
    is_capturing: () => false,
    set_config: nothing,
    shutdown: () => Promise.resolve(),
    getFeatureFlagResult: () => undefined,
    getAllFeatureFlags: () => [],
    updateFlags: nothing,
    resetPersonPropertiesForFlags: nothing,
    resetGroupPropertiesForFlags: nothing,
    startSessionRecording: nothing,
    stopSessionRecording: nothing,
    sessionRecordingStarted: () => false,
    get_session_replay_url: () => '',
    getSurveys: nothing,
    getActiveMatchingSurveys: nothing,
    renderSurvey: nothing,
    displaySurvey: nothing,
    cancelPendingSurvey: nothing,
    canRenderSurvey: () => null,
    canRenderSurveyAsync: () => Promise.resolve({ visible: false, disabledReason: 'no page (server-side rendering)' }),
    onSurveysLoaded: noUnsubscribe,
    onActiveMatchingSurveysChanged: noUnsubscribe,
    getEarlyAccessFeatures: nothing,
    updateEarlyAccessFeatureEnrollment: nothing,
    loadToolbar: () => false,
    captureLog: nothing,
    setIdentity: nothing,
    clearIdentity: nothing,
    getExtension: () => undefined,
    getNextSurveyStep: () => -1,
    _isIdentified: () => false,
    // posthog-js's defaults before init, as its client has them on a server.
    config: { api_host: 'https://us.i.posthog.com', persistence: 'localStorage+cookie', token: '' },
    featureFlags: noFlags,
    persistence: noPersistence,
  };
  return client;
}
