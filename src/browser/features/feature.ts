/**
 * What a browser feature is: a named part of the client (flags, page views, page leave,
 * exceptions, autocapture, and the extensions to come: session replay, surveys, web vitals,
 * heatmaps, dead clicks) that the client sets up at init() and then tells about what happens
 * through named hooks, instead of the feature reaching into the other parts' state. What a
 * built-in feature reads of the runtime is the slices named in its `setup` parameter's type
 * (runtime.ts), so the compiler holds it to them.
 *
 * An extension is a feature whose code is loaded later (extensions.ts): a file next to the script
 * tag, or an npm import. Its code is minified apart from the client's, so everything that crosses
 * between them (these names, ExtensionContext's) is a plain name the minifier never shortens
 * (docs/architecture.md, "Internal names").
 */
import type { DropReason, HogtailError } from '../../core/errors';
import type { Hogtail, HogtailConfig } from '../hogtail';
import type { Methods, Runtime } from '../runtime';
import type { FeatureHooks, RemoteConfig } from './hooks';

/** A feature, set up with the parts of the runtime it needs (`Context`). */
export interface Feature<Context = Runtime> {
  /** Names it in what is reported about it (an extension that fails). */
  readonly name: string;
  /** init() options it acts on beyond the core ones (the others warn as unsupported). */
  readonly options_?: readonly string[];
  /** Public methods it adds, as functions of the runtime (not in the lite script tag). */
  readonly methods_?: Partial<Methods>;
  /** Runs once at init(), in list order, after the core parts; returns the hooks it listens on. */
  setup(context: Context): FeatureHooks | void;
}

/**
 * What an extension is set up with: the public client, the options and the reporting. Plain
 * names, so a separately minified file reads the same members (the runtime's are shortened).
 */
export interface ExtensionContext {
  readonly client: Hogtail;
  readonly config: HogtailConfig;
  report(error: HogtailError): void;
  debug(message: string): void;
  /**
   * The project's last remote config (undefined until the flags answer): a file loaded because
   * of it arrives after its onRemoteConfig has run, and reads it here.
   */
  remoteConfig(): RemoteConfig | undefined;
  /** The project key, for the endpoints that take it in the query (surveys: `/api/surveys/?token=`). */
  readonly token: string;
  /**
   * GET `api_host` + `path` through the page's one request path (its deadline, the wait while
   * offline), reading at most `maxBytes` of the answer. Rejects when no answer came.
   */
  get(path: string, maxBytes: number): Promise<ExtensionResponse>;
  /**
   * POST `body` (text, or gzip'd bytes) to `api_host` + `path` through the same path as get() (the
   * executor the tag's own requests use: its deadline, the wait while offline, keepalive for small
   * bodies), reading at most `maxBytes` of the answer. Rejects when no answer came.
   */
  post(path: string, maxBytes: number, body: string | Uint8Array): Promise<ExtensionResponse>;
  /**
   * Makes `methods` the client's own: each replaces the stub of that name (posthog-js's methods
   * exist from the start, as stubs until their product is there), runs guarded (one that throws is
   * reported), and takes over the listeners the app registered on the stub before it came.
   */
  provide(methods: Readonly<Record<string, (...args: never[]) => unknown>>): void;
  /** The API host (`api_host`, resolved): where an extension that sends on its own sends. */
  readonly host: string;
  /**
   * The session and window ids the page's events carry now. `active`: the user did something,
   * which keeps the session alive; anything else (a recorded DOM change) does not, as in posthog-js.
   */
  sessionIds(active: boolean): { sessionId: string; windowId: string | undefined; startedAt: number };
  /** Counts `count` items an extension could not send in stats().dropped, by reason. */
  drop(reason: DropReason, count: number): void;
  /** startSessionRecording()'s override, when the app called it before the recorder arrived. */
  recordingAsked(): unknown;
  /**
   * The page's URL as events carry it in `$current_url`: with `mask_personal_data_properties`, the
   * click ids masked. (An extension file newer than the tag that loads it falls back to `location.href`.)
   */
  pageUrl?(): string;
}

/** An answer to ExtensionContext.get: its status and (the beginning of) its text. */
export interface ExtensionResponse {
  readonly status: number;
  readonly body: string;
  /** The Retry-After header (post()), for the backoff after a 429 or 503. */
  readonly retryAfterHeader?: string | null | undefined;
}

/**
 * A feature whose code is loaded later (extensions.ts): a name and a setup. It adds no methods
 * (the client's exist from the start: posthog-js's names, as stubs until a product is there) and
 * no options (they are checked at init(), before it may arrive).
 */
export type Extension = Pick<Feature<ExtensionContext>, 'name' | 'setup'>;
