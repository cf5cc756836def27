/**
 * Feature-flag state that outlives init(): listeners may subscribe before it. flags.ts drives it;
 * capture.ts reads the event properties it derives.
 */
import { featureProperties, type FlagsSnapshot } from '../../core/flags/decide';
import { LITE } from '../build-flags';
import type { PersistedState } from '../state/state';
import type { FlagsListener, Properties } from '../types';

export interface FlagsState {
  readonly listeners_: Set<FlagsListener>;
  /** One flags request; set by init() (undefined before, and when flags are off). */
  fetchFlags_?: () => Promise<void>;
  /** Requests run one after another on this chain. */
  chain_: Promise<void>;
  /** True from a reload until its request starts, so a burst of reloads adds one request. */
  queued_?: boolean;
  propsOf_?: FlagsSnapshot | undefined;
  props_?: Properties | undefined;
  /** The server's flags and the overrides that shownFlags() last merged, and the result. */
  shownOf_?: [FlagsSnapshot | undefined, FlagsSnapshot, FlagsSnapshot];
}

/** The flags' slice of the runtime (runtime.ts). */
export interface FlagsSlice {
  readonly flagState_: FlagsState;
}

export const createFlagsState = (): FlagsState => ({ listeners_: new Set(), chain_: Promise.resolve() });

/** `$feature/<key>` and `$active_feature_flags`, computed once per set of flags. */
export function flagProperties(flags: FlagsState, current: FlagsSnapshot | undefined): Properties | undefined {
  if (current !== flags.propsOf_) flags.props_ = (flags.propsOf_ = current) && featureProperties(current.flags);
  return flags.props_;
}

/**
 * The flags as the app and its events see them: the server's (or bootstrap's), with posthog-js's
 * local overrides over them (full build), merged once per change.
 */
export function shownFlags(flags: FlagsState, { ff, fo }: Pick<PersistedState, 'ff' | 'fo'>): FlagsSnapshot | undefined {
  if (LITE || !fo) return ff;
  const [from, over] = flags.shownOf_ ?? [];
  if (from !== ff || over !== fo) {
    flags.shownOf_ = [ff, fo, { ...ff, flags: { ...ff?.flags, ...fo.flags }, payloads: { ...ff?.payloads, ...fo.payloads } }];
  }
  return flags.shownOf_![2];
}
