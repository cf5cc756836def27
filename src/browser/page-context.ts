/**
 * The page properties every event carries. Within a task they are read once (a loop of captures
 * pays for them once); a new task checks the URL and the sizes, and builds them again only if one
 * changed: every click is a task of its own, and building them took a tenth of an autocaptured
 * click (bench/browser-autocapture.js).
 */
import { attempt } from '../core/safe-json';
import { LIB_VERSION } from '../core/version';
import { describeUserAgent } from './user-agent';

let cached: Record<string, unknown> | undefined;
let fixed: Record<string, unknown> | undefined;
let checked = false;

/** A client-side navigation within the task changes the URL: read it again. */
export function forgetPageContext(): void {
  cached = undefined;
}

export function pageContext(): Record<string, unknown> {
  if (checked && cached) return cached;
  checked = true;
  queueMicrotask(() => (checked = false));
  const url = location.href;
  const c = cached;
  if (c && c.$current_url === url && c.$viewport_height === innerHeight && c.$viewport_width === innerWidth && c.$screen_height === screen.height && c.$screen_width === screen.width) {
    return c;
  }
  fixed ??= { ...describeUserAgent(navigator.userAgent), $lib: 'hogtail-web', $lib_version: LIB_VERSION };
  const referrer = document.referrer;
  return (cached = {
    $current_url: url,
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
  });
}
