/**
 * The page properties every event carries. They are read once per task, not per event: a loop of
 * captures then pays for them once, and a SPA navigation (a new task) is still seen. What cannot
 * change while the page is open is read once per page. (The referrer is the tab's first one, kept
 * with the campaign in event-properties/attribution.ts, as posthog-js keeps it.)
 */
import { LIB_VERSION } from '../core/version';
import { localeProperties } from './event-properties/locale';
import { describeUserAgent } from './user-agent';

let cached: Record<string, unknown> | undefined;
let fixed: Record<string, unknown> | undefined;

/** A client-side navigation within the task changes the URL: read it again. */
export function forgetPageContext(): void {
  cached = undefined;
}

export function pageContext(): Record<string, unknown> {
  if (cached) return cached;
  fixed ??= { ...describeUserAgent(navigator.userAgent), ...localeProperties(), $lib: 'hogtail-web', $lib_version: LIB_VERSION };
  cached = {
    $current_url: location.href,
    $host: location.host,
    $pathname: location.pathname,
    $screen_height: screen.height,
    $screen_width: screen.width,
    $viewport_height: innerHeight,
    $viewport_width: innerWidth,
    ...fixed,
  };
  queueMicrotask(() => (cached = undefined));
  return cached;
}
