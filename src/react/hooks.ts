/**
 * posthog-js/react's hooks. Each reads one snapshot of the client's flags (see flag-store), is
 * undefined until flags are known, and falls back to the provider's bootstrap flags until then,
 * which is also what the server renders, so hydration matches. Reading a flag through a hook
 * records `$feature_flag_called` the way the client does (once per user, flag and value): after
 * render, in an effect, never during it.
 */
import { useContext, useEffect, useMemo } from 'react';
import type { BootstrapFlags, FlagValue, PostHogClient } from './client-type';
import { PostHogContext } from './context';
import { flagStore, ownEntry } from './flag-store';
import { useStore } from './use-store';

export const usePostHog = (): PostHogClient => useContext(PostHogContext).client;

function bootstrapped(bootstrap: BootstrapFlags | undefined, key: string): FlagValue | undefined {
  return ownEntry(bootstrap?.featureFlags, key);
}

/** The flag's value from the client once flags are known, else from bootstrap. */
function useFlagValue(key: string): [FlagValue | undefined, boolean] {
  const { client, bootstrap } = useContext(PostHogContext);
  const store = flagStore(client);
  const value = useStore(
    store.subscribe,
    () => {
      const flags = store.flags();
      return flags ? ownEntry(flags, key) : bootstrapped(bootstrap, key);
    },
    () => bootstrapped(bootstrap, key),
  );
  const known = useStore(
    store.subscribe,
    () => store.flags() !== undefined,
    () => false,
  );
  useEffect(() => {
    // The client's own read records the call (and dedupes it); a read before flags are known does not.
    if (known) client.getFeatureFlag(key);
  }, [client, key, value, known]);
  return [value, known];
}

export function useFeatureFlagEnabled(flag: string): boolean | undefined;
export function useFeatureFlagEnabled(flag: string, defaultValue: boolean): boolean;
export function useFeatureFlagEnabled(flag: string, defaultValue?: boolean): boolean | undefined {
  const [value, known] = useFlagValue(flag);
  if (known) return value === undefined ? (defaultValue ?? false) : value !== false;
  return value === undefined ? defaultValue : value !== false;
}

export function useFeatureFlagVariantKey(flag: string): FlagValue | undefined {
  return useFlagValue(flag)[0];
}

export function useFeatureFlagPayload(flag: string): unknown {
  const { client, bootstrap } = useContext(PostHogContext);
  const store = flagStore(client);
  return useStore(
    store.subscribe,
    () => (store.flags() ? store.payload(flag) : ownEntry(bootstrap?.featureFlagPayloads, flag)),
    () => ownEntry(bootstrap?.featureFlagPayloads, flag),
  );
}

/** The enabled flag keys; undefined until flags (or bootstrap flags) are known. */
export function useActiveFeatureFlags(): string[] | undefined {
  const { client, bootstrap } = useContext(PostHogContext);
  const store = flagStore(client);
  const fromBootstrap = useMemo(() => activeKeys(bootstrap?.featureFlags), [bootstrap?.featureFlags]);
  return useStore(
    store.subscribe,
    () => store.active() ?? fromBootstrap,
    () => fromBootstrap,
  );
}

/** posthog-js's result object: key, enabled, variant and payload together. */
export function useFeatureFlagResult(
  flag: string,
): { key: string; enabled: boolean; variant: string | undefined; payload: unknown } | undefined {
  const [value] = useFlagValue(flag);
  const payload = useFeatureFlagPayload(flag);
  return useMemo(
    () =>
      value === undefined
        ? undefined
        : { key: flag, enabled: value !== false, variant: typeof value === 'string' ? value : undefined, payload },
    [flag, value, payload],
  );
}

function activeKeys(flags: Record<string, FlagValue> | undefined): string[] | undefined {
  return flags && Object.keys(flags).filter((key) => flags[key] !== false);
}
