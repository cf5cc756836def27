/**
 * `useSyncExternalStore` where React has it (18+); on React 16.8–17, the same contract built from
 * state and an effect (re-render on every change, read the snapshot during render). The older
 * path can tear under concurrent rendering, which those versions do not have.
 */
import * as React from 'react';

type UseStore = <T>(subscribe: (onChange: () => void) => () => void, snapshot: () => T, serverSnapshot: () => T) => T;

const legacyUseStore: UseStore = (subscribe, snapshot) => {
  const [, rerender] = React.useReducer((count: number) => count + 1, 0);
  React.useEffect(() => subscribe(rerender), [subscribe]);
  return snapshot();
};

export const useStore: UseStore = (React as { useSyncExternalStore?: UseStore }).useSyncExternalStore ?? legacyUseStore;
