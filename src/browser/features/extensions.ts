/**
 * Extensions: features whose code comes later (feature.ts). Two ways in:
 * - an npm app imports the extension and hands it to registerExtension; every client sets it up
 *   at init, or at once when it is already running;
 * - the script tag loads an extension's file when the init options or the remote config turn it
 *   on (LOADABLE), from next to the script tag (else from `api_host`'s `/static/`), as posthog-js
 *   loads its lazy files; the file registers itself with
 *   `(window.__hogtailExtensions ||= []).push(extension)`, which works whether it runs before or
 *   after the script tag.
 * An extension's setup and hooks run guarded: one that throws is reported, and the client goes on.
 * Session replay (replay-request.ts), surveys, web vitals, heatmaps and dead clicks are in LOADABLE.
 * An extension hands the client its public methods through ExtensionContext.provide.
 */
import { HogtailError } from '../../core/errors';
import type { HogtailConfig } from '../hogtail';
import type { Runtime } from '../runtime';
import { pageExecutor } from '../delivery/fetch-executor';
import type { Extension, ExtensionContext, Feature } from './feature';
import { addHooks, guarded, type HookName, type RemoteConfig } from './hooks';
import { deadClicksWanted } from '../../extensions/dead-clicks/wanted';
import { heatmapsWanted } from '../../extensions/heatmaps/wanted';
import { webVitalsWanted } from '../../extensions/web-vitals/wanted';
import { recorderLoadable, recordingAsked } from './replay-request';

/** An extension the script tag can load. */
export interface LoadableExtension {
  /** Its file, next to the script tag. */
  readonly file: string;
  /** Whether the init options or the project's remote config (undefined until the flags answer) turn it on. */
  wanted(config: HogtailConfig, remote: RemoteConfig | undefined): boolean;
  /** The init() options it acts on (space-separated), so they do not warn as unsupported. */
  readonly options?: string;
}

/** The extensions the script tag knows how to load, by name (the name the extension registers with). */
export const LOADABLE: Readonly<Record<string, LoadableExtension>> = {
  // posthog-js's rule: the project has surveys (true, or a non-empty list) and the page did not turn them off.
  surveys: {
    file: 'hogtail.surveys.js',
    wanted: (config, remote) => !config.disable_surveys && !!remote && (remote.surveys === true || !!(remote.surveys as unknown[])?.length),
  },
  'web-vitals': { file: 'hogtail.web-vitals.js', wanted: webVitalsWanted, options: 'capture_performance' },
  heatmaps: { file: 'hogtail.heatmaps.js', wanted: heatmapsWanted, options: 'enable_heatmaps capture_heatmaps' },
  'dead-clicks': { file: 'hogtail.dead-clicks.js', wanted: deadClicksWanted, options: 'capture_dead_clicks' },
  recorder: recorderLoadable,
};

/** Per client: loads what its options and last remote config want now (startSessionRecording()). */
const loaders = new WeakMap<Runtime, () => void>();
export const loadWantedExtensions = (rt: Runtime) => loaders.get(rt)?.();

const registered: Extension[] = [];
const listeners: ((extension: Extension) => void)[] = [];

/** Makes `extension` part of every client of the page (a name already set up on a client is skipped there). */
export function registerExtension(extension: Extension): void {
  registered.push(extension);
  for (const listener of listeners) listener(extension);
}

/** The script tag's global for extension files: they push themselves onto it. */
export function installExtensionGlobal(): void {
  const w = window as unknown as { __hogtailExtensions?: unknown };
  const early = w.__hogtailExtensions;
  w.__hogtailExtensions = { push: (...extensions: Extension[]) => extensions.forEach(registerExtension) };
  if (Array.isArray(early)) early.forEach(registerExtension);
}

/**
 * Sets `extension` up on a client, its hooks guarded; once init() is done, its onLoaded runs at
 * once (registered too, harmlessly: onLoaded runs only at init). It sees the client through
 * `context` only: plain names, the same in its own bundle.
 */
function install(rt: Runtime, context: ExtensionContext, extension: Extension, loaded: boolean): void {
  const guard = <A extends unknown[], R>(what: string, fn: (...args: A) => R) => guarded(rt.report_, extension.name, what, fn);
  const given = guard('setup', () => extension.setup(context))() || {};
  const hooks: Record<string, (...args: unknown[]) => unknown> = {};
  for (const hook in given) hooks[hook] = guard(hook, given[hook as HookName] as (...args: unknown[]) => unknown);
  if (loaded) hooks.onLoaded?.();
  addHooks(rt, hooks);
}

/** A stub that keeps the listeners registered before its product came (api/unsupported.ts). */
type Stub = { takeOver_?: (method: (...args: unknown[]) => unknown) => void };

/** ExtensionContext.provide: `methods` replace the client's stubs, guarded; the stubs' waiting listeners move over. */
function provide(rt: Runtime, methods: Readonly<Record<string, (...args: never[]) => unknown>>): void {
  const client = rt.client as unknown as Record<string, Stub & ((...args: unknown[]) => unknown)>;
  for (const name in methods) {
    const stub = client[name];
    const method = (client[name] = guarded(rt.report_, 'extension', name + '()', methods[name] as (...args: unknown[]) => unknown));
    stub?.takeOver_?.(method);
  }
}

/**
 * The extensions feature: sets up the registered extensions on this client and, as the options
 * or the remote config turn one of `loadable` on, loads its file from `base` (the script tag's
 * folder; else `api_host`'s `/static/`). A file that does not load is reported.
 */
export function extensionsFeature(loadable: Readonly<Record<string, LoadableExtension>> = LOADABLE, base?: string): Feature {
  let options: string[] = [];
  for (const name in loadable) options = options.concat(loadable[name]!.options?.split(' ') ?? []);
  return {
    name: 'extensions',
    options_: ['disable_external_dependency_loading', ...options],
    setup(rt: Runtime) {
      const installed = new Set<string>();
      /** Files asked for once each: the file registers its extension, and add() sets it up. */
      const requested = new Set<string>();
      let loaded = false;
      const host = rt.endpoint_.host.replace(/\/+$/, '');
      /** The last remote config: an extension whose file arrives after it still reads it. */
      let remoteConfig: RemoteConfig | undefined;
      /** A GET (or, with a body, a POST) through the page's executor; the answer in plain names (the tag's own are shortened). */
      const send = (path: string, maxResponseBytes: number, body?: string | Uint8Array) =>
        pageExecutor({
          url: host + path,
          method: body ? 'POST' : 'GET',
          headers: {},
          body,
          timeoutMs: rt.endpoint_.timeoutMs,
          maxResponseBytes,
        }).then((answer) => ({ status: answer.status, body: answer.body, retryAfterHeader: answer.retryAfter }));
      const context: ExtensionContext = {
        client: rt.client,
        config: rt.config_,
        report: rt.report_,
        debug: rt.debug,
        token: rt.endpoint_.apiKey,
        get: send,
        post: send,
        provide: (methods) => provide(rt, methods),
        remoteConfig: () => remoteConfig,
        host: rt.endpoint_.host,
        sessionIds(active) {
          const sessionId = rt.states_.session_(Date.now(), !active);
          return { sessionId, windowId: rt.visit_.windowId_(), startedAt: rt.states_.state_.sid![2] };
        },
        drop: (reason, count) => rt.queue_.countDrop(reason, count),
        recordingAsked: () => recordingAsked.get(rt.config_),
        pageUrl: () => rt.visit_.pageUrl_(),
      };
      const add = (extension: Extension) =>
        installed.has(extension.name) || (installed.add(extension.name), install(rt, context, extension, loaded));
      registered.forEach(add);
      listeners.push(add);
      const from = base ?? host + '/static/';
      const load = (remote?: RemoteConfig) => {
        remoteConfig = remote ?? remoteConfig;
        for (const name in loadable) {
          if (installed.has(name) || requested.has(name) || !loadable[name]!.wanted(rt.config_, remoteConfig)) continue;
          requested.add(name);
          // posthog-js's switch for pages that allow no third-party script: nothing is fetched.
          if (rt.config_.disable_external_dependency_loading) {
            rt.warn_(
              'extension ' + name,
              `extension ${name} not loaded: disable_external_dependency_loading is set (import it and call registerExtension())`,
            );
            continue;
          }
          const script = document.createElement('script');
          script.src = from + loadable[name]!.file;
          // With npm the file is looked for on api_host, which PostHog does not serve: say how to bundle it.
          script.onerror = () =>
            rt.report_(
              new HogtailError(
                `extension ${name} could not be loaded from ${script.src}; it stays off (host the file there, or bundle it: registerExtension from hogtail/${name})`,
              ),
            );
          document.head.appendChild(script);
        }
      };
      loaders.set(rt, load);
      return {
        onLoaded() {
          loaded = true;
          load();
        },
        onRemoteConfig: load,
      };
    },
  };
}
