/**
 * Feature-flag state that outlives init(): listeners may subscribe before it. flags.ts drives it;
 * capture.ts reads the event properties it derives.
 */
import { featureProperties, type FlagsSnapshot } from '../../core/flags/decide';
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
