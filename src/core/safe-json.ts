/**
 * Serialises event properties that came from arbitrary application code.
 *
 * The fast path is a plain JSON.stringify, which already normalises what JSON cannot carry the way
 * the server expects (NaN and Infinity become null, Dates their ISO string, functions and
 * undefined vanish). It throws only for circular references and BigInt; then a slower walk
 * replaces those and says where they were, so the event is still delivered.
 */
export interface SerializedValue {
  json: string;
  /** Human-readable notes about what was changed, e.g. `properties.self: circular reference`. */
  notes: string[];
}

export function serializeProperties(value: object, path = 'properties'): SerializedValue {
  try {
    return { json: JSON.stringify(value), notes: [] };
  } catch {
    const notes: string[] = [];
    const cleaned = sanitize(value, path, new Set<object>(), notes);
    return { json: JSON.stringify(cleaned), notes };
  }
}

function sanitize(value: unknown, path: string, ancestors: Set<object>, notes: string[]): unknown {
  if (typeof value === 'bigint') {
    notes.push(`${path}: BigInt sent as the string "${value.toString()}"`);
    return value.toString();
  }
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.has(value)) {
    notes.push(`${path}: circular reference replaced by "[Circular]"`);
    return '[Circular]';
  }
  const withToJSON = value as { toJSON?: unknown };
  if (typeof withToJSON.toJSON === 'function') {
    try {
      return sanitize((withToJSON.toJSON as () => unknown)(), path, ancestors, notes);
    } catch (error) {
      notes.push(`${path}: toJSON() threw (${String(error)}); sent as null`);
      return null;
    }
  }
  ancestors.add(value);
  let result: unknown;
  if (Array.isArray(value)) {
    result = value.map((item, index) => sanitize(item, `${path}[${index}]`, ancestors, notes));
  } else {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      out[key] = sanitize((value as Record<string, unknown>)[key], `${path}.${key}`, ancestors, notes);
    }
    result = out;
  }
  ancestors.delete(value);
  return result;
}

/** UTF-8 length without allocating: the server's limits are in bytes, JS strings count UTF-16 units. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 2; // a surrogate pair is 2 units and 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
