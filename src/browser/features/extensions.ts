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
 * Session replay is the first (replay-request.ts); surveys, web vitals, heatmaps and dead clicks
 * each add their entry to LOADABLE in their issue.
 */
import { HogtailError } from '../../core/errors';
import type { HogtailConfig } from '../hogtail';
import type { Runtime } from '../runtime';
import type { Extension, ExtensionContext, Feature } from './feature';
import { addHooks, guarded, type FeatureHooks, type HookName, type RemoteConfig } from './hooks';
import { recorderLoadable, recordingAsked } from './replay-request';

/** An extension the script tag can load. */
export interface LoadableExtension {
  /** Its file, next to the script tag. */
  readonly file: string;
  /** Whether the init options or the project's remote config (undefined until the flags answer) turn it on. */
  wanted(config: HogtailConfig, remote: RemoteConfig | undefined): boolean;
}

/** The extensions the script tag knows how to load, by name. */
export const LOADABLE: Readonly<Record<string, LoadableExtension>> = { recorder: recorderLoadable };

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
 * once. It sees the client through `context` only: plain names, the same in its own bundle.
 */
function install(rt: Runtime, context: ExtensionContext, extension: Extension, loaded: boolean): void {
  const { name } = extension;
  const report = rt.report_;
  const given = guarded(report, name, 'setup', () => extension.setup(context))() || {};
  const hooks: Record<string, unknown> = {};
  for (const hook in given) hooks[hook] = guarded(report, name, hook, given[hook as HookName] as () => unknown);
  if (loaded) {
    (hooks.onLoaded as (() => void) | undefined)?.();
    delete hooks.onLoaded;
  }
  addHooks(rt, name, hooks as FeatureHooks);
}

/**
 * The extensions feature: sets up the registered extensions on this client and, as the options
 * or the remote config turn one of `loadable` on, loads its file from `base` (the script tag's
 * folder; else `api_host`'s `/static/`). A file that does not load is reported.
 */
export function extensionsFeature(loadable: Readonly<Record<string, LoadableExtension>> = LOADABLE, base?: string): Feature {
  return {
    name: 'extensions',
    setup(rt: Runtime) {
      const installed = new Set<string>();
      /** Files asked for once each: the file registers its extension, and add() sets it up. */
      const requested = new Set<string>();
      let loaded = false;
      let remote: RemoteConfig | undefined;
      const context: ExtensionContext = {
        client: rt.client,
        config: rt.config_,
        report: rt.report_,
        debug: rt.debug,
        token: rt.endpoint_.apiKey,
        host: rt.endpoint_.host,
        remoteConfig: () => remote,
        sessionIds(active) {
          const sessionId = rt.states_.session_(Date.now(), !active);
          return { sessionId, windowId: rt.visit_.windowId_(), startedAt: rt.states_.state_.sid![2] };
        },
        drop: (reason, count) => rt.queue_.countDrop(reason, count),
        recordingAsked: () => recordingAsked.get(rt.config_),
      };
      const add = (extension: Extension) =>
        installed.has(extension.name) || (installed.add(extension.name), install(rt, context, extension, loaded));
      registered.forEach(add);
      listeners.push(add);
      const from = base ?? rt.endpoint_.host.replace(/\/+$/, '') + '/static/';
      const load = (config?: RemoteConfig) => {
        remote = config || remote;
        for (const name in loadable) {
          if (installed.has(name) || requested.has(name) || !loadable[name]!.wanted(rt.config_, remote)) continue;
          requested.add(name);
          const script = document.createElement('script');
          script.src = from + loadable[name]!.file;
          script.onerror = () => rt.report_(new HogtailError(`extension ${name} could not be loaded from ${script.src}; it stays off`));
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
