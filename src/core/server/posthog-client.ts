/**
 * The server client's flag and request-context API: posthog-node's flag methods (the deprecated
 * single-flag ones and posthog-node 5's `evaluateFlags()` snapshot, `getFeatureFlagResult`,
 * `overrideFeatureFlags`), person-property events, and the request context (`withContext`).
 * Split from client.ts, which keeps capture, delivery and shutdown; the platform clients extend this.
 */
import { HogtailError } from '../errors';
import type { FlagValue } from '../flags/decide';
import { setBackgroundTimeout } from '../timers';
import { ServerClient } from './client';
import type { FlagOptions } from './feature-flags';
import type { OverrideFeatureFlagsOptions } from './flag-overrides';
import { createFlagSnapshot, snapshotProperties, type FeatureFlagEvaluations } from './flag-snapshot';
import type { EventMessage } from './messages';
import { mergeContext, messageInContext, type ContextData, type ContextOptions } from './request-context';

/** A parsed payload: what JSON can hold (posthog-node's name). */
export type JsonType = string | number | boolean | null | { [key: string]: JsonType } | JsonType[];

/** posthog-node's getFeatureFlagResult answer. */
export interface FeatureFlagResult {
  readonly key: string;
  readonly enabled: boolean;
  readonly variant?: string;
  readonly payload?: unknown;
}

export interface SetPersonPropertiesMessage {
  distinctId: string;
  properties?: Record<string, unknown>;
  propertiesOnce?: Record<string, unknown>;
}

export interface UnsetPersonPropertiesMessage {
  distinctId: string;
  properties: string | string[];
}

/** posthog-node's overloads: `(distinctId, options)` or, inside withContext, `(options)`. */
type IdOrOptions<O> = string | O | undefined;

export class PostHogServerClient extends ServerClient {
  #noContextWarned = false;

  /** posthog-node's option: whether PostHog AI integrations (`@posthog/ai`) leave prompts and outputs out. */
  get privacyMode(): boolean {
    return this.options.privacyMode;
  }

  /** capture() with the request context applied and an evaluateFlags() snapshot's properties added. */
  override capture(message: EventMessage): void {
    let ready: unknown = message;
    try {
      ready = messageInContext(message, this.platform.context?.get());
      const fromSnapshot = snapshotProperties((message as { flags?: unknown }).flags);
      if (fromSnapshot) ready = { ...(ready as EventMessage), properties: { ...fromSnapshot, ...(ready as EventMessage).properties } };
    } catch {
      // A message that cannot be read is the intake's to refuse, with its reason.
    }
    super.capture(ready as EventMessage);
  }

  /** posthog-node's getFeatureFlag: the flag's value for this user, or undefined when unknown. */
  getFeatureFlag(key: string, distinctId: string, options?: FlagOptions): Promise<FlagValue | undefined> {
    return this.parts.flags.getFeatureFlag(key, distinctId, options);
  }

  isFeatureEnabled(key: string, distinctId: string, options?: FlagOptions): Promise<boolean | undefined> {
    return this.parts.flags.isFeatureEnabled(key, distinctId, options);
  }

  /** The payload of the flag's current value, JSON-parsed when it is a JSON string. */
  getFeatureFlagPayload(key: string, distinctId: string, matchValue?: FlagValue, options?: FlagOptions): Promise<JsonType | undefined> {
    return this.parts.flags.getFeatureFlagPayload(key, distinctId, matchValue, options) as Promise<JsonType | undefined>;
  }

  getAllFlags(distinctId: string, options?: FlagOptions): Promise<Record<string, FlagValue>> {
    return this.parts.flags.getAllFlags(distinctId, options);
  }

  getAllFlagsAndPayloads(
    distinctId: string,
    options?: FlagOptions,
  ): Promise<{ featureFlags: Record<string, FlagValue>; featureFlagPayloads: Record<string, unknown> }> {
    return this.parts.flags.getAllFlagsAndPayloads(distinctId, options);
  }

  /** Flag lookups that went to the server so far (the flag cache's effectiveness, for monitoring). */
  get decideRequests(): number {
    return this.parts.flagCache.decideRequests;
  }

  /**
   * posthog-node's name: resolves true once flag definitions are loaded for local evaluation, false
   * when the first load failed, there is no personalApiKey, or `timeoutMs` passed first.
   */
  async waitForLocalEvaluationReady(timeoutMs = 30_000): Promise<boolean> {
    if (this.parts.local === undefined) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setBackgroundTimeout(resolve, Math.max(0, timeoutMs))));
    await Promise.race([this.parts.local.poller.firstLoad, deadline]);
    clearTimeout(timer);
    return this.isLocalEvaluationReady();
  }

  /** True while flag definitions are loaded (posthog-node's name). */
  isLocalEvaluationReady(): boolean {
    return this.parts.local?.poller.definitions !== undefined;
  }

  /** Polls the flag definitions now instead of at the next interval (posthog-node's name). */
  async reloadFeatureFlags(): Promise<void> {
    await this.parts.local?.poller.reload();
  }

  /** Flag-definition requests made so far (local evaluation's cost, for monitoring and benchmarks). */
  get definitionRequests(): number {
    return this.parts.local?.poller.requests ?? 0;
  }

  /**
   * posthog-node 5's flag API: every flag for the user at once, as a snapshot to branch on
   * (`isEnabled`, `getFlag`, `getFlagPayload`) and to hand to `capture({ flags })`.
   */
  async evaluateFlags(idOrOptions?: IdOrOptions<FlagOptions>, maybeOptions?: FlagOptions): Promise<FeatureFlagEvaluations> {
    const [distinctId, options] = this.#resolve(idOrOptions, maybeOptions, 'evaluateFlags');
    const found =
      distinctId === undefined
        ? { flags: {}, payloads: {} }
        : await this.parts.flags.evaluate(distinctId, options).catch(() => ({ flags: {}, payloads: {} }));
    const requestId = 'requestId' in found ? (found.requestId as string | undefined) : undefined;
    return createFlagSnapshot({
      ...found,
      read: (key, value, send) => {
        if (distinctId !== undefined && (send ?? options.sendFeatureFlagEvents) !== false)
          this.parts.flags.called(distinctId, key, value, options, requestId);
      },
      warn: (message) => this.reporter.report(new HogtailError(message)),
    });
  }

  /** One flag as `{ key, enabled, variant, payload }` (posthog-node's name), or undefined when unknown; sends `$feature_flag_called`. */
  async getFeatureFlagResult(
    key: string,
    idOrOptions?: IdOrOptions<FlagOptions>,
    maybeOptions?: FlagOptions,
  ): Promise<FeatureFlagResult | undefined> {
    const [distinctId, options] = this.#resolve(idOrOptions, maybeOptions, 'getFeatureFlagResult');
    if (distinctId === undefined) return undefined;
    const value = await this.getFeatureFlag(key, distinctId, options);
    if (value === undefined) return undefined;
    const payload =
      value === false
        ? undefined
        : await this.parts.flags.getFeatureFlagPayload(key, distinctId, value, { ...options, sendFeatureFlagEvents: false });
    return {
      key,
      enabled: value !== false,
      ...(typeof value === 'string' && { variant: value }),
      ...(payload !== undefined && { payload }),
    };
  }

  /** Flag values (and payloads) that answer before any evaluation, for tests and development; `false` clears them. */
  overrideFeatureFlags(overrides: OverrideFeatureFlagsOptions): void {
    this.parts.flags.override(overrides);
  }

  /** A `$set` event: `properties` set, `propertiesOnce` set only where unset (posthog-node's name). */
  setPersonProperties({ distinctId, properties = {}, propertiesOnce = {} }: SetPersonPropertiesMessage): void {
    const set: Record<string, unknown> = {};
    if (Object.keys(properties ?? {}).length > 0) set.$set = properties;
    if (Object.keys(propertiesOnce ?? {}).length > 0) set.$set_once = propertiesOnce;
    if (Object.keys(set).length > 0) this.capture({ distinctId, event: '$set', properties: set });
  }

  /** A `$set` event with `$unset`: removes these person properties (posthog-node's name). */
  unsetPersonProperties({ distinctId, properties }: UnsetPersonPropertiesMessage): void {
    const names = (Array.isArray(properties) ? properties : [properties]).filter((name) => typeof name === 'string' && name.trim() !== '');
    if (names.length > 0) this.capture({ distinctId, event: '$set', properties: { $unset: names } });
  }

  /** Runs `fn` in a request context: captures inside it (across awaits) use its distinct id, session and properties. */
  withContext<T>(data: Partial<ContextData>, fn: () => T, options?: ContextOptions): T {
    const store = this.platform.context;
    if (!store) {
      this.#warnNoContext('withContext');
      return fn();
    }
    return store.run(mergeContext(store.get(), data, options), fn);
  }

  /** The request context in effect here, if any. */
  getContext(): ContextData | undefined {
    return this.platform.context?.get();
  }

  /** Sets the request context for the rest of the current async call chain. */
  enterContext(data: Partial<ContextData>, options?: ContextOptions): void {
    const store = this.platform.context;
    if (!store) return this.#warnNoContext('enterContext');
    store.enter(mergeContext(store.get(), data, options));
  }

  /** posthog-node's overloads, with the context's distinct id when none is given. */
  #resolve<O extends object>(idOrOptions: IdOrOptions<O>, maybeOptions: O | undefined, method: string): [string | undefined, O] {
    const explicit = typeof idOrOptions === 'string' ? idOrOptions : undefined;
    const options = (typeof idOrOptions === 'object' && idOrOptions !== null ? idOrOptions : (maybeOptions ?? {})) as O;
    const distinctId = explicit ?? this.getContext()?.distinctId;
    if (distinctId === undefined)
      this.reporter.report(
        new HogtailError(`${method}() needs a distinctId: pass it, or call it inside withContext({ distinctId }, ...).`),
      );
    return [distinctId, options];
  }

  #warnNoContext(method: string): void {
    if (this.#noContextWarned) return;
    this.#noContextWarned = true;
    this.reporter.report(
      new HogtailError(
        `${method}() has no request context here (it needs Node's AsyncLocalStorage); pass distinctId to each call instead.`,
      ),
    );
  }
}
