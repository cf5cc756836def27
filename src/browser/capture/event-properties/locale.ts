/**
 * Properties of the browser that do not change while a page is open, read once per page
 * (page-context.ts): its time zone and language, which PostHog's web analytics break down by, and
 * the raw user agent (cut as posthog-js cuts it), from which PostHog can re-derive what hogtail's
 * short user-agent reader does not.
 */
import { attempt } from '../../../core/safe-json';

/** Where the browser has it (Chromium 144+, Firefox 139+). */
declare const Temporal: { Now: { timeZoneId(): string } };

/**
 * The host's IANA time zone. Temporal reads it alone; a date formatter (Intl's way, posthog-js's)
 * first loads the locale's data, which cost headless Chromium 13–27 ms on the page's first call:
 * 1–3 µs on each of bench/browser-capture.js's 10,000 capture() calls. Intl where Temporal is
 * missing (or throws, or a page's element with the id "Temporal" stands in its place). The two
 * answer alike, except for a host on the legacy zone "GMT" (Temporal "UTC", Chromium's Intl "+00:00").
 */
const timeZone = (): string => attempt(() => Temporal.Now.timeZoneId(), '') || Intl.DateTimeFormat().resolvedOptions().timeZone;

export function localeProperties(): Record<string, unknown> {
  const language = navigator.language;
  const agent = navigator.userAgent;
  return {
    $timezone: attempt(timeZone, undefined),
    $timezone_offset: new Date().getTimezoneOffset(),
    $browser_language: language,
    $browser_language_prefix: language?.split('-')[0],
    $raw_user_agent: agent.length > 1000 ? agent.slice(0, 997) + '...' : agent,
  };
}
