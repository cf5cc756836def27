/**
 * JSON for hogtail's own records on pages that patch the prototypes. Prototype.js (and its copies)
 * defines `Array.prototype.toJSON` returning a string, so JSON.stringify writes every array as a
 * quoted string: the stored session `[id, last, start]` came back as a string and started a new
 * session on every load. While hogtail stringifies its state, that method is set aside.
 */
export function withPlainArrays<T>(fn: () => T): T {
  const proto = Array.prototype as { toJSON?: unknown };
  const own = Object.getOwnPropertyDescriptor(proto, 'toJSON');
  if (!own?.configurable) return fn();
  delete proto.toJSON;
  try {
    return fn();
  } finally {
    Object.defineProperty(proto, 'toJSON', own);
  }
}
