/**
 * A bounded map that forgets the least recently used key (docs/guarantees.md §5: dedup and per-user caches
 * never grow without bound). A Map keeps insertion order, so re-inserting on use is the whole trick.
 */
export interface Lru<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  has(key: K): boolean;
  delete(key: K): void;
  clear(): void;
  /** Keys from least to most recently used (for persisting the map). */
  keys(): K[];
  readonly size: number;
}

export function createLru<K, V>(maxSize: number): Lru<K, V> {
  const map = new Map<K, V>();
  const limit = Math.max(1, maxSize);
  return {
    get(key) {
      const value = map.get(key);
      if (value !== undefined) {
        map.delete(key);
        map.set(key, value);
      }
      return value;
    },
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      if (map.size > limit) map.delete(map.keys().next().value as K);
    },
    has: (key) => map.has(key),
    delete: (key) => void map.delete(key),
    clear: () => map.clear(),
    keys: () => [...map.keys()],
    get size() {
      return map.size;
    },
  };
}
