/**
 * The reason to print when a command gives up on the server. The client reports each failed
 * attempt as "N event(s) not delivered yet: <reason>; retry N in X ms."; once the command has
 * stopped retrying, only the reason is true, so the count and the retry promise are cut off.
 */
export function lastTransportReason(message: string): string {
  const withoutPrefix = message.replace(/^hogtail: /, '').replace(/^\d+ event\(s\) not delivered yet: /, '');
  return withoutPrefix.replace(/; retry \d+ in \d+ ms\.?$/, '');
}
