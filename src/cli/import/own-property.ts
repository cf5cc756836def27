/**
 * Setting a property whose name comes from the input. JSON.parse makes `__proto__` an ordinary key,
 * but assigning it (`target['__proto__'] = value`) sets the object's prototype instead, and the
 * property is silently gone; so that one name is defined rather than assigned.
 */
export function setProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
