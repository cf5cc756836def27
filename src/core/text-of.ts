// Text for any value, even one whose String() throws (Object.create(null); a Symbol once terser's
// `unsafe` makes String(x) x+""): a message about a failure must not fail itself.
export function textOf(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
