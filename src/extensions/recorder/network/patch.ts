/**
 * Replaces a method of the page (fetch, XMLHttpRequest's) with a wrapper for as long as a
 * recording runs. Undoing it puts the page's own method back only when the wrapper is still the
 * one in place: a library that wrapped it after us keeps its wrapper, and ours then just passes
 * calls through, so neither breaks the other.
 */
export function patchMethod<T extends object, K extends keyof T>(
  target: T,
  name: K,
  wrap: (original: T[K], active: () => boolean) => T[K],
): () => void {
  const original = target[name];
  if (typeof original !== 'function') return () => undefined;
  let on = true;
  const wrapper = wrap(original, () => on);
  target[name] = wrapper;
  return () => {
    on = false;
    if (target[name] === wrapper) target[name] = original;
  };
}
