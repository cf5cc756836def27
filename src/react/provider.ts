/**
 * `PostHogProvider`, with posthog-js/react's props: either an initialised `client`, or `apiKey` and
 * `options`, in which case the package's default instance is initialised once, after the first
 * render (never on the server). "Once" holds under StrictMode's doubled effects and across several
 * providers: the client remembers that it was initialised, and later option changes go through
 * `set_config` as posthog-js/react does.
 */
import { createElement, useEffect, useMemo, type ReactElement, type ReactNode } from 'react';
import hogtail from 'hogtail';
import type { BootstrapFlags, PostHogClient } from './client-type';
import { PostHogContext, type PostHogContextValue } from './context';

type InitOptions = Parameters<PostHogClient['init']>[1];

export type PostHogProviderProps = { children?: ReactNode } & (
  | { client: PostHogClient; apiKey?: never; options?: never }
  | { apiKey: string; options?: InitOptions; client?: never }
);

const initialised = new WeakMap<PostHogClient, string>();

export function PostHogProvider(props: PostHogProviderProps): ReactElement {
  const { children, client, apiKey, options } = props;
  const instance = client ?? (hogtail as PostHogClient);
  const optionsKey = JSON.stringify(options ?? {});
  useEffect(() => {
    if (client || !apiKey) return;
    const keyUsed = initialised.get(instance);
    if (keyUsed === undefined) {
      initialised.set(instance, apiKey);
      instance.init(apiKey, options);
    } else if (keyUsed !== apiKey) {
      console.warn('[hogtail] PostHogProvider: apiKey changed; keeping the first (pass `client` to switch projects)');
    } else if (options) {
      setConfig(instance, options);
    }
    // optionsKey stands for options: a new object with the same content is no change.
  }, [client, apiKey, optionsKey]);
  const value = useMemo<PostHogContextValue>(() => ({ client: instance, bootstrap: bootstrapOf(options, client) }), [instance, optionsKey]);
  return createElement(PostHogContext.Provider, { value }, children);
}

function bootstrapOf(options: InitOptions | undefined, client: PostHogClient | undefined): BootstrapFlags | undefined {
  const fromClient = (client as { config?: { bootstrap?: BootstrapFlags } } | undefined)?.config?.bootstrap;
  return (options?.bootstrap as BootstrapFlags | undefined) ?? fromClient;
}

function setConfig(client: PostHogClient, options: NonNullable<InitOptions>): void {
  const setter = (client as { set_config?: (options: NonNullable<InitOptions>) => void }).set_config;
  setter?.call(client, options);
}
