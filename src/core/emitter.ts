/** The smallest event emitter that serves `client.on('error', fn)`; a throwing listener is isolated. */
export interface Emitter<Events extends Record<string, unknown>> {
  on<K extends keyof Events>(name: K, listener: (payload: Events[K]) => void): () => void;
  emit<K extends keyof Events>(name: K, payload: Events[K]): boolean;
}

export function createEmitter<Events extends Record<string, unknown>>(): Emitter<Events> {
  const listeners = new Map<keyof Events, Set<(payload: never) => void>>();
  return {
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
    emit(name, payload) {
      const set = listeners.get(name);
      if (!set || set.size === 0) return false;
      for (const listener of set) {
        try {
          (listener as (payload: unknown) => void)(payload);
        } catch {
          // A broken listener must not break capture() or the queue.
        }
      }
      return true;
    },
  };
}
