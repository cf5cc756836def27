/**
 * Whether we are running in a page. Checked with both globals because Deno and some workers define
 * `window` without a document, and test setups define `document` without a window; only a real page
 * (or a DOM emulation of one) has both.
 */
export function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined';
}
