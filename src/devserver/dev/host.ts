/** Which addresses count as this machine only, for the bind warning and the page's Host check. */

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * DNS rebinding guard for the page and /_dev/*: a site on the web can point its own name at
 * 127.0.0.1 and then read same-origin from this server. Its requests carry its name in Host, so a
 * loopback-bound server answers only requests addressed to a loopback name.
 */
export function isAllowedHostHeader(hostHeader: string | undefined, boundHost: string): boolean {
  if (!isLoopbackHost(boundHost)) return true;
  if (hostHeader === undefined) return false;
  const name = hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.replace(/:\d+$/, '');
  return isLoopbackHost(name);
}
