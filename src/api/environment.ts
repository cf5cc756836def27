/**
 * Whether we are running in a browser: a page, or any of its workers (dedicated, shared, service).
 * A personal key there is readable by whoever opens the page, whichever thread holds it.
 *
 * A page is recognised by `window` and `document` together (Deno and some workers define `window`
 * alone; test setups define `document` alone). A worker has no document, so it is recognised by its
 * global scope being a WorkerGlobalScope in an engine that identifies as a browser: every browser's
 * user agent starts with "Mozilla/", while server runtimes that also implement workers say "Deno/",
 * "Bun/", "Node.js/" or "Cloudflare-Workers".
 */
export function isBrowser(): boolean {
  return isPage() || isBrowserWorker();
}

/** Read through globalThis: this runs in Node too, whose type check knows no `window`. */
function isPage(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown };
  return scope.window !== undefined && scope.document !== undefined;
}

function isBrowserWorker(): boolean {
  const scope = (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope;
  if (typeof scope !== 'function' || !(globalThis instanceof scope)) return false;
  const userAgent = (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent;
  return typeof userAgent === 'string' && userAgent.startsWith('Mozilla/');
}
