/**
 * The page properties every event carries. They are read once per task, not per event: a loop of
 * captures then pays for them once, and a SPA navigation (a new task) is still seen.
 */
import { attempt } from '../../core/safe-json';
import { LIB_VERSION } from '../../core/version';
import { describeUserAgent } from './user-agent';

let cached: Record<string, unknown> | undefined;
let fixed: Record<string, unknown> | undefined;

/** A client-side navigation within the task changes the URL: read it again. */
export function forgetPageContext(): void {
  cached = undefined;
}

export function pageContext(): Record<string, unknown> {
  if (cached) return cached;
  fixed ??= { ...describeUserAgent(navigator.userAgent), $lib: 'hogtail-web', $lib_version: LIB_VERSION };
  const referrer = document.referrer;
  cached = {
    $current_url: location.href,
    $host: location.host,
    $pathname: location.pathname,
    $referrer: referrer || '$direct',
    // No referrer ('') is no URL: answered without trying, since a thrown TypeError (with its stack)
    // costs far more than the rest of the page context (measured per click in bench/browser-autocapture.js).
    $referring_domain: referrer ? attempt(() => new URL(referrer).host, '$direct') : '$direct',
    $screen_height: screen.height,
    $screen_width: screen.width,
    $viewport_height: innerHeight,
    $viewport_width: innerWidth,
    ...fixed,
  };
  queueMicrotask(() => (cached = undefined));
  return cached;
}
